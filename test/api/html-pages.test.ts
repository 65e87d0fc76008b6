/**
 * One HTML page, three ways in, one text: uploaded through the API as a file, read by address as a
 * `website` file, and fetched by address as a `document` file. All three go through the worker as users
 * run it (files/create, the queue, the extraction sandbox or the page reader), over a Windows-1252 page
 * served from 127.0.0.1 with navigation, an article, a table, a list and a footer. A second page, in
 * ISO-8859-7, names its charset in the Content-Type header alone (an upload cannot: only <meta> travels).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, upload, waitFor, type Json } from '../support/api';
import { send, startSite, type TestSite } from '../web/site-server';

const PARAGRAPH = 'The café on the quay serves crème brûlée to the ferry crews, who cross to the sister port of Zürich twice a day. ';
const PAGE = `<!doctype html><html><head><meta charset="windows-1252"><title>The quay café | Harbour notes</title>
  <style>body { font-family: serif }</style><script>var tracking = "not text";</script></head>
<body>
  <nav><a href="/">Home</a> <a href="/menu">Menu</a> <a href="/contact">Contact</a></nav>
  <article>
    <h1>The quay café</h1>
    <p>${PARAGRAPH.repeat(3)}</p>
    <p>Opening hours change with the tides:</p>
    <ul><li>Monday to Friday: six to six</li><li>Saturday: eight to noon</li></ul>
    <table><tr><th>Dish</th><th>Price</th></tr><tr><td>Crème brûlée</td><td>4.50</td></tr></table>
    <p>${PARAGRAPH.repeat(2)}<br>Ask for the naïve pastry of the day.</p>
  </article>
  <footer>Copyright the harbour board</footer>
</body></html>`;
const BYTES = Buffer.from(PAGE, 'latin1'); // Windows-1252 agrees with Latin-1 on every character used here

/** A page in ISO-8859-7 that says so only in its Content-Type header (Greek letters U+0384-U+03CE sit at 0xB4-0xFE). */
const GREEK = `<html><body><p>${'Το πλοίο φεύγει από το λιμάνι κάθε πρωί στις εννέα. '.repeat(12)}</p></body></html>`;
const GREEK_BYTES = Buffer.from([...GREEK].map((char) => (char.charCodeAt(0) < 0x80 ? char.charCodeAt(0) : char.charCodeAt(0) - 0x2d0)));

let site: TestSite;
beforeAll(async () => {
  site = await startSite({
    '/quay-cafe': (_req, res) => send(res, 200, 'text/html; charset=windows-1252', BYTES),
    '/greek': (_req, res) => send(res, 200, 'text/html; charset=iso-8859-7', GREEK_BYTES),
  });
});
afterAll(() => site.close());

const contentOf = async (file: Json): Promise<string> => {
  const done = (await waitFor(`/files/get/${file.id}`, (b) => ['ready', 'failed'].includes(b.data?.state), undefined, 60_000)).data;
  expect(done.state, done.error).toBe('ready');
  return done.content as string;
};

describe('an HTML page uploaded and the same page fetched by address', () => {
  it('give the same text', async () => {
    const sent = await upload('quay-cafe.html', new Uint8Array(BYTES), undefined, 'text/html');
    expect(sent.status).toBe(200);
    const address = `${site.origin}/quay-cafe`;
    const greek = `${site.origin}/greek`;
    const created = await Promise.all([
      post('/files/create', { name: 'quay-cafe.html', key: sent.body.data.key, fileType: 'document' }),
      post('/files/create', { name: 'quay café', fileType: 'website', external_uri: address }),
      post('/files/create', { name: 'quay-cafe.html', fileType: 'document', external_uri: address }),
      post('/files/create', { name: 'ferry', fileType: 'website', external_uri: greek }),
      post('/files/create', { name: 'ferry.html', fileType: 'document', external_uri: greek }),
    ]);
    const [fromUpload, fromWebsite, fromDocument, greekWebsite, greekDocument] = await Promise.all(
      created.map((answer) => contentOf(answer.body.data as Json)),
    );

    expect(fromUpload).toContain('crème brûlée to the ferry crews'); // decoded by the <meta> charset
    expect(fromUpload).toContain('Monday to Friday: six to six\nSaturday: eight to noon');
    expect(fromUpload).toContain('Dish\tPrice\nCrème brûlée\t4.50');
    expect(fromUpload).toContain('\nAsk for the naïve pastry of the day.');
    expect(fromUpload).not.toMatch(/Contact|tracking|font-family|harbour board/);
    expect(fromWebsite).toBe(fromUpload);
    expect(fromDocument).toBe(fromUpload);
    expect(greekWebsite).toContain('Το πλοίο φεύγει από το λιμάνι'); // decoded by the Content-Type's charset
    expect(greekDocument).toBe(greekWebsite);
  }, 90_000);
});
