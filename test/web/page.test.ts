/** Web pages to clean text: readability, the body-text fallback, titles, canonical addresses, links, charsets. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchError } from '../../functions/adapters/web/errors';
import { fetchPage, readPage } from '../../functions/adapters/web/page';
import { html, page, send, startSite, type TestSite } from './site-server';

const PARAGRAPH = 'Knowledge memories keep what an agent learned, so it can answer later without reading everything again. ';

const ARTICLE = `<!doctype html><html><head>
  <title>Memory design | Example Blog</title>
  <link rel="canonical" href="/posts/memory-design">
  <style>p { color: red }</style><script>window.tracking = true;</script>
</head><body>
  <nav><a href="/">Home</a> <a href="/about#team">About</a> <a href="/about">About again</a>
    <a href="https://elsewhere.example/">Elsewhere</a> <a href="mailto:me@example.com">Mail</a></nav>
  <article><h1>Memory design</h1>
    <p>${PARAGRAPH.repeat(4)}</p>
    <p>Second paragraph: ${PARAGRAPH.repeat(3)}<br>after a break.</p>
    <p><a href="posts/next?page=2#comments">Next post</a></p>
  </article>
  <footer>Copyright footer</footer>
</body></html>`;

describe('readPage', () => {
  const read = readPage(ARTICLE, 'http://blog.test/posts/memory-design?ref=home');

  it('keeps the main content as paragraphs, without scripts, styles or navigation', () => {
    expect(read.extractedBy).toBe('readability');
    expect(read.text).toContain(PARAGRAPH.trim());
    expect(read.text).toMatch(/again\.\n\nSecond paragraph:/);
    expect(read.text).toContain('\nafter a break.');
    expect(read.text).not.toMatch(/tracking|color: red|Copyright footer|Elsewhere/);
  });

  it('reads the title and the canonical address', () => {
    expect(read.title).toMatch(/^Memory design/);
    expect(read.canonicalUrl).toBe('http://blog.test/posts/memory-design');
  });

  it('lists same-host links once each, normalised, without fragments', () => {
    expect(read.links).toEqual(['http://blog.test/', 'http://blog.test/about', 'http://blog.test/posts/posts/next?page=2']);
  });

  it('falls back to the body text when readability finds no article', () => {
    const bare = readPage('<html><body><aside>Opening hours: 9 to 5</aside><footer>Call us</footer></body></html>', 'http://shop.test/');
    expect(bare.extractedBy).toBe('body');
    expect(bare.text).toBe('Opening hours: 9 to 5\nCall us'); // an aside and a footer are lines, not paragraphs
    expect(bare.title).toBe('http://shop.test/');
    expect(bare.canonicalUrl).toBe('http://shop.test/');
  });

  it('keeps the whole body when the article readability finds is a small part of the page', () => {
    const branches = Array.from({ length: 30 }, (_, i) => `<span>Branch ${i} opens on weekdays from nine to five. </span>`);
    const teaser = readPage(
      `<html><body><nav>${branches.join('')}</nav><article><p>Welcome, friends, to our shop of bread, cakes and pies.</p></article></body></html>`,
      'http://teaser.test/',
    );
    expect(teaser.extractedBy).toBe('body');
    expect(teaser.text).toContain('Welcome, friends');
    expect(teaser.text).toContain('Branch 29 opens');
  });

  it('writes table cells tab-separated, list items as lines and <pre> as it is', () => {
    const read = readPage(
      '<html><body><table><tr><th>City</th><th>Visitors</th></tr><tr><td>Porto</td><td>1200</td></tr></table>' +
        '<ul><li>Monday</li><li>Tuesday</li></ul><pre>a  = 1\n  b = 2</pre></body></html>',
      'http://table.test/',
    );
    expect(read.text).toBe('City\tVisitors\nPorto\t1200\n\nMonday\nTuesday\n\na  = 1\n  b = 2');
  });

  it('copes with fragments of HTML and honours <base href>', () => {
    const fragment = readPage('<title>Notes</title><base href="/docs/">Loose text <a href="guide">guide</a>', 'http://x.test/a/b');
    expect(fragment.title).toBe('Notes');
    expect(fragment.text).toBe('Loose text guide');
    expect(fragment.links).toEqual(['http://x.test/docs/guide']);
  });
});

describe('fetchPage', () => {
  let site: TestSite;
  beforeAll(async () => {
    site = await startSite({
      '/article': html(ARTICLE),
      '/latin1': (_req, res) =>
        send(res, 200, 'text/html; charset=iso-8859-1', Buffer.from(page('Caf\u00e9', '<p>Cr\u00e8me br\u00fbl\u00e9e</p>'), 'latin1')),
      '/meta-charset': (_req, res) =>
        send(
          res,
          200,
          'text/html',
          Buffer.from(`<html><head><meta charset="windows-1252"></head><body><p>\u00e9t\u00e9</p></body></html>`, 'latin1'),
        ),
      '/undeclared': (_req, res) =>
        send(res, 200, 'text/html', Buffer.from('<html><body><p>Cr\u00e8me br\u00fbl\u00e9e</p></body></html>', 'latin1')),
      '/logo.png': (_req, res) => send(res, 200, 'image/png', Buffer.from([0x89, 0x50])),
    });
  });
  afterAll(() => site.close());

  it('fetches and reads a page, with links relative to the address that answered', async () => {
    const fetched = await fetchPage(`${site.origin}/article`, { allowPrivate: true });
    expect(fetched.url).toBe(`${site.origin}/article`);
    expect(fetched.canonicalUrl).toBe(`${site.origin}/posts/memory-design`);
    expect(fetched.links).toContain(`${site.origin}/about`);
    expect(fetched.text).toContain('Second paragraph');
  });

  it('decodes the charset of the header, or of a <meta> tag', async () => {
    const latin1 = await fetchPage(`${site.origin}/latin1`, { allowPrivate: true });
    expect([latin1.title, latin1.text]).toEqual(['Caf\u00e9', 'Cr\u00e8me br\u00fbl\u00e9e']);
    const meta = await fetchPage(`${site.origin}/meta-charset`, { allowPrivate: true });
    expect(meta.text).toBe('\u00e9t\u00e9');
    const undeclared = await fetchPage(`${site.origin}/undeclared`, { allowPrivate: true });
    expect(undeclared.text).toBe('Cr\u00e8me br\u00fbl\u00e9e'); // not UTF-8, so Windows-1252, as for an uploaded file
  });

  it('refuses what is not an HTML page', async () => {
    const error = await fetchPage(`${site.origin}/logo.png`, { allowPrivate: true }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FetchError);
    expect((error as FetchError).message).toBe(`${site.origin}/logo.png is not an HTML page (content-type image/png)`);
  });
});
