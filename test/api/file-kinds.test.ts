/**
 * One file of every kind through the API: upload or address, processing by the worker, and ingestion into
 * one memory. Fixtures are made here (or are the few-KB files of test/extract/fixtures); sites are served
 * from 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, pocketsphinxInstalled, wordRecall } from '../extract/support/deps';
import { ffmpegMake } from '../extract/support/media';
import { buildDocx, buildEpub, buildPptx, buildXlsx } from '../extract/support/office';
import { buildScannedPdf, buildTextPdf } from '../extract/support/pdf';
import { html, page, send, startSite, type TestSite } from '../web/site-server';
import { get, ingest, post, upload, waitFor, type Json } from '../support/api';

let site: TestSite;

beforeAll(async () => {
  const article = (title: string, words: string) =>
    html(page(title, `<nav>menu home about</nav><article><h1>${title}</h1><p>${words}</p><p>${words} again.</p></article>`));
  site = await startSite({
    '/article': article('Tidal power', 'Tidal barrages turn the rise of the sea into electricity'),
    '/sitemap.xml': (_req, res) =>
      send(
        res,
        200,
        'application/xml',
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
        <url><loc>${site.origin}/a</loc></url><url><loc>${site.origin}/b</loc></url><url><loc>${site.origin}/gone</loc></url></urlset>`,
      ),
    '/a': article('Orchards', 'Apple orchards need cold winters to fruit well'),
    '/b': article('Beekeeping', 'Beekeepers smoke the hive before opening it'),
    '/robots.txt': (_req, res) => send(res, 200, 'text/plain', 'User-agent: *\nDisallow: /private\n'),
    '/': html(page('Home', `<p>Welcome to the garden club of the valley.</p><a href="/roses">Roses</a> <a href="/private">Secret</a>`)),
    '/roses': html(page('Roses', `<p>Prune roses in late winter above an outward bud.</p><a href="/roses/pests">Pests</a>`)),
    '/roses/pests': html(page('Pests', '<p>Aphids on roses can be washed off with water.</p>')),
    '/private': html(page('Private', '<p>members only secret</p>')),
  });
});
afterAll(() => site.close());

async function uploaded(name: string, bytes: Uint8Array, fileType: string, contentType = 'application/octet-stream') {
  const sent = await upload(name, bytes, undefined, contentType);
  if (sent.status !== 200) throw new Error(JSON.stringify(sent.body));
  return (await post('/files/create', { name, key: sent.body.data.key, fileType })).body.data as Json;
}

const fromAddress = async (name: string, fileType: string, path: string) =>
  (await post('/files/create', { name, fileType, external_uri: `${site.origin}${path}` })).body.data as Json;

const settled = (id: string) => waitFor(`/files/get/${id}`, (b) => ['ready', 'failed'].includes(b.data?.state), undefined, 60_000);

describe('every file kind', () => {
  it('extracts, processes and ingests documents, pages, sitemaps, crawls, images, audio and video', async () => {
    const speech = pocketsphinxInstalled();
    const files: Array<{ file: Json; expect: string | RegExp; kind: string }> = [
      {
        kind: 'pdf',
        file: await uploaded('report.pdf', buildTextPdf([['Quarterly revenue grew in the northern region']]), 'document'),
        expect: 'Quarterly revenue grew',
      },
      { kind: 'scanned pdf', file: await uploaded('scan.pdf', buildScannedPdf(fixture('ocr-text.png')), 'document'), expect: /\w{4,}/ },
      {
        kind: 'docx',
        file: await uploaded('memo.docx', buildDocx(['The ferry leaves at nine every morning'], 'Memo'), 'document'),
        expect: 'ferry leaves at nine',
      },
      {
        kind: 'pptx',
        file: await uploaded('deck.pptx', buildPptx([['Roadmap', 'Ship the glacier release in spring']]), 'document'),
        expect: 'glacier release',
      },
      { kind: 'xlsx', file: await uploaded('budget.xlsx', buildXlsx([['Lanterns', 42]]), 'document'), expect: 'Lanterns' },
      {
        kind: 'epub',
        file: await uploaded('book.epub', buildEpub('Tales', [['Chapter one', 'The lighthouse stood alone on the cliff']]), 'document'),
        expect: 'lighthouse stood alone',
      },
      {
        kind: 'html',
        file: await uploaded(
          'page.html',
          new TextEncoder().encode(page('Owls', '<p>Barn owls hunt at dusk over the meadow</p>')),
          'document',
          'text/html',
        ),
        expect: 'Barn owls hunt',
      },
      { kind: 'image', file: await uploaded('shot.png', fixture('ocr-text.png'), 'image', 'image/png'), expect: /\w{4,}/ },
      { kind: 'website', file: await fromAddress('tidal', 'website', '/article'), expect: 'Tidal barrages' },
      {
        kind: 'other (text)',
        file: await uploaded('notes.bin', new TextEncoder().encode('Plain notes about compost heaps'), 'other'),
        expect: 'compost heaps',
      },
    ];
    const sitemap = await fromAddress('garden sitemap', 'sitemap', '/sitemap.xml');
    const crawl = await fromAddress('garden club', 'website_bulk', '/');
    const audio = await uploaded('speech.ogg', fixture('speech.ogg'), 'audio', 'audio/ogg');
    const video = await uploaded(
      'clip.mp4',
      await ffmpegMake(
        ['-f', 'lavfi', '-i', 'color=c=blue:s=64x64:d=4.6', '-i', '{in}', '-shortest', '-c:v', 'libx264', '-c:a', 'aac', '{out}'],
        'clip.mp4',
        fixture('speech.ogg'),
      ),
      'video',
      'video/mp4',
    );

    for (const { file, expect: wanted, kind } of files) {
      const done = (await settled(file.id)).data;
      expect(done.state, `${kind}: ${done.error}`).toBe('ready');
      if (typeof wanted === 'string') expect(done.content, kind).toContain(wanted);
      else expect(done.content, kind).toMatch(wanted);
      expect(done.silverTranscriptKey, kind).toMatch(/^silver\//);
      expect(done.tokens, kind).toBeGreaterThan(0);
    }

    const map = (await settled(sitemap.id)).data;
    expect(map).toMatchObject({ state: 'ready', hiddenFilesTotal: 3, hiddenFilesCreated: 3, hiddenFilesProcessed: 3 });
    const bulk = (await settled(crawl.id)).data;
    expect(bulk.state, bulk.error).toBe('ready');
    expect(bulk.hiddenFilesTotal).toBe(3); // /, /roses, /roses/pests; /private is disallowed by robots.txt
    expect(bulk.content).not.toContain('/private');

    const audioDone = (await settled(audio.id)).data;
    const videoDone = (await settled(video.id)).data;
    if (speech) {
      expect(audioDone.state, audioDone.error).toBe('ready');
      expect(audioDone.length).toBeCloseTo(4.6, 0);
      expect(
        wordRecall(audioDone.content, 'the quick brown fox jumps over the lazy dog memory is the treasury of knowledge'),
      ).toBeGreaterThan(0.5);
      expect(videoDone.state, videoDone.error).toBe('ready');
      expect(videoDone.silverAudioKey).toMatch(/audio\.wav$/);
    } else {
      expect(audioDone).toMatchObject({ state: 'failed', error: expect.stringMatching(/pocketsphinx/) });
    }

    const memory = (await post('/memories/create', { name: 'everything', memoryType: 'vector' })).body.data;
    const all = [...files.map((f) => f.file.id as string), sitemap.id, crawl.id, audio.id, video.id];
    const ready = await ingest(memory, all);
    expect(ready.step).toBe('ready');
    const failedIds = ready.failedFiles.map((f: { fileID: string }) => f.fileID).sort();
    expect(failedIds).toEqual(speech ? [] : [audio.id, video.id].sort()); // failedFiles is unordered
    expect(ready.fileCount).toBe(all.length - failedIds.length);
    expect((await get(`/files/get/${sitemap.id}`)).body.data.hiddenFilesIngested).toBe(2); // /gone is a 404
  }, 120_000);

  it('fails a corrupt PDF and a missing page with reasons a person understands', async () => {
    const corrupt = await uploaded('broken.pdf', new TextEncoder().encode('%PDF-1.7\n garbage garbage'), 'document');
    const missing = await fromAddress('nothing', 'website', '/nothing-here');
    const brokenDone = (await settled(corrupt.id)).data;
    expect(brokenDone.state).toBe('failed');
    expect(brokenDone.error).toMatch(/PDF/);
    const missingDone = (await settled(missing.id)).data;
    expect(missingDone).toMatchObject({ state: 'failed', error: expect.stringMatching(/404/) });
  }, 60_000);
});
