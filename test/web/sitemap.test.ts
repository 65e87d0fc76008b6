/** Sitemaps and sitemap indexes: XML, gzip, plain text, feeds, bounds, duplicates and failing children. */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchError } from '../../functions/adapters/web/errors';
import { readSitemaps } from '../../functions/adapters/web/sitemap';
import { parseSitemap } from '../../functions/adapters/web/sitemap-parse';
import { html, page, send, startSite, type TestSite } from './site-server';

const MB = 1024 * 1024;

function urlset(urls: readonly string[]): string {
  const entries = urls.map((url) => `<url><loc>${url}</loc><lastmod>2024-05-01</lastmod></url>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries}</urlset>`;
}

function sitemapIndex(sitemaps: readonly string[]): string {
  const entries = sitemaps.map((url) => `<sitemap><loc>${url}</loc></sitemap>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries}</sitemapindex>`;
}

let site: TestSite;

beforeAll(async () => {
  site = await startSite({
    '/sitemap_index.xml': (_req, res) =>
      send(
        res,
        200,
        'application/xml',
        sitemapIndex([`${site.origin}/sitemap-1.xml`, `${site.origin}/sitemap-2.xml.gz`, `${site.origin}/sitemap-1.xml`]),
      ),
    '/sitemap-1.xml': (_req, res) =>
      send(res, 200, 'text/xml; charset=utf-8', urlset([`${site.origin}/a`, `${site.origin}/b#top`, `${site.origin}/c`])),
    '/sitemap-2.xml.gz': (_req, res) =>
      send(res, 200, 'application/x-gzip', gzipSync(urlset([`${site.origin}/c`, `${site.origin}/d`, `${site.origin}/e`]))),
    '/broken-index.xml': (_req, res) =>
      send(res, 200, 'application/xml', sitemapIndex([`${site.origin}/missing.xml`, `${site.origin}/sitemap-1.xml`])),
    '/sitemap.txt': (_req, res) => send(res, 200, 'text/plain', `${site.origin}/one\n\n  ${site.origin}/two  \nnot a url\n`),
    '/page.html': html(page('Not a sitemap', '<p>hello</p>')),
    '/feed.xml': (_req, res) => send(res, 200, 'text/html', '<p>wrong type</p>'),
  });
});

afterAll(() => site.close());

describe('readSitemaps', () => {
  it('follows an index to a plain and a gzipped sitemap, dropping duplicate addresses', async () => {
    const reading = await readSitemaps(`${site.origin}/sitemap_index.xml`, { allowPrivate: true });
    expect(reading.urls.map((entry) => entry.url)).toEqual(['a', 'b', 'c', 'd', 'e'].map((path) => `${site.origin}/${path}`));
    expect(reading.urls[0]).toEqual({ url: `${site.origin}/a`, lastModified: '2024-05-01' });
    expect(reading.sitemaps).toEqual([
      `${site.origin}/sitemap_index.xml`,
      `${site.origin}/sitemap-1.xml`,
      `${site.origin}/sitemap-2.xml.gz`,
    ]);
    expect(reading.failures).toEqual([]);
    expect(reading.truncated).toBe(false);
  });

  it('stops at the limits on sitemaps read and addresses kept', async () => {
    const fewUrls = await readSitemaps(`${site.origin}/sitemap_index.xml`, { allowPrivate: true }, { maxUrls: 4 });
    expect(fewUrls.urls).toHaveLength(4);
    expect(fewUrls.truncated).toBe(true);
    const fewSitemaps = await readSitemaps(`${site.origin}/sitemap_index.xml`, { allowPrivate: true }, { maxSitemaps: 2 });
    expect(fewSitemaps.sitemaps).toHaveLength(2);
    expect(fewSitemaps.urls).toHaveLength(3);
    expect(fewSitemaps.truncated).toBe(true);
  });

  it('reports a failing child sitemap and keeps the others', async () => {
    const reading = await readSitemaps(`${site.origin}/broken-index.xml`, { allowPrivate: true });
    expect(reading.failures).toEqual([{ url: `${site.origin}/missing.xml`, error: `${site.origin}/missing.xml answered 404 Not Found` }]);
    expect(reading.urls).toHaveLength(3);
  });

  it('reads plain-text sitemaps', async () => {
    const reading = await readSitemaps(`${site.origin}/sitemap.txt`, { allowPrivate: true });
    expect(reading.urls).toEqual([{ url: `${site.origin}/one` }, { url: `${site.origin}/two` }]);
  });

  it('fails when the first sitemap cannot be read', async () => {
    const messages = await Promise.all(
      ['/nothing.xml', '/page.html', '/feed.xml'].map((path) =>
        readSitemaps(`${site.origin}${path}`, { allowPrivate: true }).then(
          () => 'read',
          (error: unknown) => (error instanceof FetchError ? error.message : String(error)),
        ),
      ),
    );
    expect(messages).toEqual([
      `${site.origin}/nothing.xml answered 404 Not Found`,
      `${site.origin}/page.html is not a sitemap (content-type text/html)`,
      `${site.origin}/feed.xml is not a sitemap (content-type text/html)`,
    ]);
  });

  it('refuses a sitemap on a private address when those are not allowed', async () => {
    const error = await readSitemaps(`${site.origin}/sitemap_index.xml`, { allowPrivate: false }).catch((caught: unknown) => caught);
    expect((error as FetchError).reason).toBe('refused');
  });
});

describe('parseSitemap', () => {
  const base = 'https://example.com/sitemap.xml';

  it('decodes entities, namespaces and relative addresses', () => {
    const xml = `<?xml version="1.0"?><sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
      <sm:url><sm:loc> https://example.com/search?q=a&amp;page=2 </sm:loc><image:image><image:loc>https://cdn.example.com/i.png</image:loc></image:image></sm:url>
      <sm:url><sm:loc>/relative</sm:loc></sm:url><sm:url><sm:loc>ftp://example.com/file</sm:loc></sm:url></sm:urlset>`;
    expect(parseSitemap(Buffer.from(xml), base, MB)).toEqual({
      kind: 'urlset',
      urls: [{ url: 'https://example.com/search?q=a&page=2' }, { url: 'https://example.com/relative' }],
    });
  });

  it('reads RSS and Atom feeds', () => {
    const rss =
      '<rss version="2.0"><channel><link>https://example.com/</link><item><link>https://example.com/p1</link><pubDate>Mon, 01 Jan 2024 00:00:00 GMT</pubDate></item></channel></rss>';
    expect(parseSitemap(Buffer.from(rss), base, MB)).toEqual({
      kind: 'urlset',
      urls: [{ url: 'https://example.com/p1', lastModified: 'Mon, 01 Jan 2024 00:00:00 GMT' }],
    });
    const atom =
      '<feed xmlns="http://www.w3.org/2005/Atom"><entry><link rel="self" href="https://example.com/self"/><link href="https://example.com/a1"/><updated>2024-01-01</updated></entry></feed>';
    expect(parseSitemap(Buffer.from(atom), base, MB)).toEqual({
      kind: 'urlset',
      urls: [{ url: 'https://example.com/a1', lastModified: '2024-01-01' }],
    });
  });

  it('refuses a gzip file that unpacks past the cap, and XML that is not a sitemap', () => {
    const bomb = gzipSync(Buffer.alloc(2 * MB, 0x20));
    expect(() => parseSitemap(bomb, base, MB)).toThrow(`${base} is larger than 1 MB once unpacked`);
    expect(() => parseSitemap(Buffer.from('<html><body>hi</body></html>'), base, MB)).toThrow(
      `${base} is not a sitemap (root element <html>)`,
    );
  });

  it('keeps entity expansion bounded and refuses external entities', () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`).join('')}]><urlset><url><loc>https://example.com/&lol9;</loc></url></urlset>`;
    const outcome = (() => {
      try {
        return parseSitemap(Buffer.from(laughs), base, MB);
      } catch (error) {
        return error;
      }
    })();
    // Either refused or left unexpanded: never a billion laughs.
    if (!(outcome instanceof FetchError)) expect(JSON.stringify(outcome).length).toBeLessThan(1_000);
    const external = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><urlset><url><loc>https://example.com/&xxe;</loc></url></urlset>`;
    expect(() => parseSitemap(Buffer.from(external), base, MB)).toThrow(FetchError);
  });
});
