/** POST /files/resync/{id} against a site on 127.0.0.1: one page changed, one vanished, one added; crawls that meet a page twice. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, ingest, listAll, pollPause, post, waitFor, type Json } from '../support/api';
import { childIdOf } from '../../functions/core/ingest/hidden-files';
import { testDeps } from '../support/stores';
import { page, send, startSite, type TestSite } from '../web/site-server';

const stores = testDeps();

/** The site's pages as they are now: text and lastmod per path, changed by the tests. */
const pages = new Map<string, { text: string; lastmod: string }>();
let site: TestSite;

function servePage(path: string) {
  return (request: IncomingMessage, response: ServerResponse) => {
    const current = pages.get(path);
    if (!current) return send(response, 404, 'text/plain', 'gone');
    const etag = `"${Buffer.from(current.text).toString('base64url').slice(0, 16)}-${current.text.length}"`;
    if (request.headers['if-none-match'] === etag) {
      response.writeHead(304, { etag });
      response.end();
      return;
    }
    const body = page(path, `<main><h1>${path}</h1><p>${current.text}</p></main>`);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag, 'content-length': Buffer.byteLength(body) });
    response.end(body);
  };
}

const sitemap = () =>
  `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${[...pages]
    .filter(([path]) => path.startsWith('/docs/'))
    .map(([path, p]) => `<url><loc>${site.origin}${path}</loc><lastmod>${p.lastmod}</lastmod></url>`)
    .join('')}</urlset>`;

beforeAll(async () => {
  const home = page(
    'Home',
    '<main><p>The rowing club meets on Saturdays at the boathouse by the river.</p><a href="/index.html">home</a> <a href="/about">about</a> <a href="/copy">copy</a></main>',
  );
  site = await startSite({
    '/sitemap.xml': (_req, res) => send(res, 200, 'application/xml', sitemap()),
    '/docs/a': servePage('/docs/a'),
    '/docs/b': servePage('/docs/b'),
    '/docs/c': servePage('/docs/c'),
    '/docs/d': servePage('/docs/d'),
    '/': (_req, res) => send(res, 200, 'text/html', home),
    '/index.html': (_req, res) => send(res, 200, 'text/html', home),
    '/about': (_req, res) =>
      send(res, 200, 'text/html', page('About', '<main><p>Founded in 1911, the club trains novice rowers every spring.</p></main>')),
    '/copy': (_req, res) =>
      send(
        res,
        200,
        'text/html',
        page(
          'Copy',
          `<link rel="canonical" href="/about"><main><p>Founded in 1911, the club trains novice rowers every spring.</p></main>`,
        ),
      ),
  });
  pages.set('/docs/a', { text: 'Apricots ripen in late July on the south wall of the orchard.', lastmod: '2026-01-01' });
  pages.set('/docs/b', { text: 'Beehives are inspected weekly from April to September.', lastmod: '2026-01-01' });
  pages.set('/docs/c', { text: 'Compost heaps are turned every fortnight to keep them warm.', lastmod: '2026-01-01' });
});
afterAll(async () => {
  await site.close();
  stores.documentClient.destroy();
});

const ask = (memoryId: string, query: string) => get(`/memory/?memoryID=${memoryId}&query=${encodeURIComponent(query)}&topK=10`);

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() > start + 30_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, pollPause(Date.now() - start)));
  }
}

const childrenOf = async (parentId: string) => (await get(`/files/get/${parentId}`)).body.data as Json;

/**
 * Waits until the file's re-sync has ended, as the API tells it: while one runs, another request is refused
 * as "being synced again already"; once the worker cleared its claim, as "was synced again at" (the minimum
 * interval, a minute here, still holds, so asking starts nothing). Every fetch of the re-sync is done by then.
 */
async function resyncEnded(fileId: string): Promise<Json> {
  let answer: Awaited<ReturnType<typeof post>> | undefined;
  await until(async () => {
    answer = await post(`/files/resync/${fileId}`, {});
    return answer.status !== 429 || !/being synced again already/.test(answer.body.error);
  }, `the re-sync of ${fileId} to end`);
  return answer as Awaited<ReturnType<typeof post>>;
}

describe('re-sync of web sources', () => {
  it('updates a changed page, removes a vanished one and adds a new one; unchanged pages are not fetched', async () => {
    const created = await post('/files/create', { name: 'orchard', fileType: 'sitemap', external_uri: `${site.origin}/sitemap.xml` });
    expect(created.status).toBe(200);
    const file = created.body.data as Json;
    await waitFor(`/files/get/${file.id}`, (b) => b.data?.state === 'ready');
    const memory = (await post('/memories/create', { name: 'orchard', memoryType: 'vector' })).body.data as Json;
    await ingest(memory, [file.id]);
    expect(JSON.stringify((await ask(memory.id, 'beehives inspected')).body.payload)).toContain('Beehives');

    pages.set('/docs/a', { text: 'Apricots are now picked in early August after the cold spring.', lastmod: '2026-02-01' });
    pages.delete('/docs/b');
    pages.set('/docs/d', { text: 'Damson jam is made in September from the hedge fruit.', lastmod: '2026-02-01' });
    const hitsBefore = site.hits.length;
    const resynced = await post(`/files/resync/${file.id}`, {});
    expect(resynced.status).toBe(200);
    expect(resynced.body.data).toMatchObject({ id: file.id, fileType: 'sitemap' });

    await until(async () => {
      const hits = JSON.stringify((await ask(memory.id, 'apricots beehives damson compost')).body.payload);
      return hits.includes('early August') && hits.includes('Damson') && !hits.includes('Beehives');
    }, 'the memory to show the re-synced pages');
    const hits = JSON.stringify((await ask(memory.id, 'apricots beehives damson compost')).body.payload);
    expect(hits).not.toContain('late July');
    expect(hits).toContain('Compost');
    const fetched = site.hits.slice(hitsBefore);
    expect(fetched).toContain('/docs/a');
    expect(fetched).toContain('/docs/d');
    expect(fetched).not.toContain('/docs/c'); // its lastmod did not move: not asked for
    const parent = await childrenOf(file.id);
    expect(parent).toMatchObject({ state: 'ready', hiddenFilesTotal: 3 });
    // the refresh is charged the changed and the new page's tokens only
    const tokensOf = async (path: string) =>
      (await get(`/files/get/${childIdOf(file.id, `${site.origin}${path}`)}`)).body.data.tokens as number;
    const jobs = await stores.jobs.listByMemory(parent.userID as string, memory.id);
    await until(
      async () => (await stores.jobs.listByMemory(parent.userID as string, memory.id)).every((job) => job.reconciled),
      'the refresh job to settle',
    );
    const refresh = (await stores.jobs.listByMemory(parent.userID as string, memory.id))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      .at(-1);
    expect(jobs.length).toBe(2);
    expect(refresh?.usedTokens).toBe((await tokensOf('/docs/a')) + (await tokensOf('/docs/d')));
    expect(refresh?.usedTokens).toBeLessThan(parent.tokens as number);
    expect(parent.content).toContain('/docs/d');
    expect(parent.content).not.toContain('/docs/b');
  });

  it('answers 400 for a file that is not a web source, 404 for an unknown one', async () => {
    const upload = await listAll('/files/list?category=document&limit=100', 'files');
    if (upload[0]) expect((await post(`/files/resync/${upload[0].id}`, {})).body.error).toMatch(/^id: /);
    expect((await post('/files/resync/00000000-0000-4000-8000-000000000000', {})).status).toBe(404);
  });

  it('crawls `/` and `/index.html`, and a page and its canonical copy, as one page each', async () => {
    const created = await post('/files/create', { name: 'club', fileType: 'website_bulk', external_uri: `${site.origin}/` });
    const file = created.body.data as Json;
    const done = await waitFor(`/files/get/${file.id}`, (b) => b.data?.state === 'ready' || b.data?.state === 'failed');
    expect(done.data.state).toBe('ready');
    expect(done.data.hiddenFilesTotal).toBe(2);
    expect(done.data.content).toContain(`${site.origin}/about`);
    expect(done.data.content).not.toContain('index.html');
    expect(done.data.content).not.toContain('/copy');
    const resynced = await post(`/files/resync/${file.id}`, {});
    expect(resynced.status).toBe(200);
    expect((await resyncEnded(file.id)).body.error).toMatch(/was synced again at /);
    expect((await childrenOf(file.id)).hiddenFilesTotal).toBe(2);
  });
});

describe('re-sync guard', () => {
  it("runs one re-sync at a time and one a minute per file: 10 quick calls cause one re-sync's fetches", async () => {
    const before = site.hits.length;
    const created = await post('/files/create', { name: 'club-guarded', fileType: 'website_bulk', external_uri: `${site.origin}/` });
    const file = created.body.data as Json;
    expect((await waitFor(`/files/get/${file.id}`, (b) => b.data?.state === 'ready' || b.data?.state === 'failed')).data.state).toBe(
      'ready',
    ); // a crawl reads its pages before the file is ready (web-sources.ts): the site hears nothing more of it
    const oneCrawl = site.hits.length - before;
    expect(oneCrawl).toBeGreaterThanOrEqual(3); // robots.txt, `/` and `/about` at least

    const start = site.hits.length;
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(`/files/resync/${file.id}`, {})));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(9).fill(429)]);
    const refused = answers.find((a) => a.status === 429);
    expect(refused?.body).toMatchObject({ status: 'rate_limited', error: expect.stringMatching(new RegExp(`^id: file '${file.id}' `)) });
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);

    // the re-sync ended and cleared its claim; the minimum interval still holds
    const again = await resyncEnded(file.id);
    expect(again.status).toBe(429);
    expect(again.body.error).toMatch(/was synced again at .*; it can be synced again from /);
    expect(site.hits.length - start).toBe(oneCrawl);
  }, 60_000);

  it("a crashed worker's claim goes stale: the file can be synced again", async () => {
    const created = await post('/files/create', { name: 'club-stale', fileType: 'website_bulk', external_uri: `${site.origin}/about` });
    const file = created.body.data as Json;
    await waitFor(`/files/get/${file.id}`, (b) => b.data?.state === 'ready');
    const longAgo = Date.now() - 20 * 60 * 1000;
    const at = (ms: number) => new Date(ms).toISOString();
    // a re-sync claimed 20 minutes ago whose worker never ended it
    const claim = { now: at(longAgo), staleBefore: at(longAgo - 1), intervalBefore: at(longAgo - 1) };
    const accountId = (await childrenOf(file.id)).userID as string;
    expect(await stores.files.claimResync(accountId, file.id as string, claim)).toEqual({ claimed: true });
    expect((await post(`/files/resync/${file.id}`, {})).status).toBe(200);
  });
});
