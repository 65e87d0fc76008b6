/**
 * The console in a real browser (Debian's chromium through playwright-core) against the local runtime:
 * sign in, drop a document, create a graph memory, ingest, ask, find an entity in the graph, see a failed
 * file's reason. With KMEM_SCREENSHOTS=<dir> it also saves a screenshot of each screen (the README's).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { del, env, get, listAll, post, textFile, waitFor } from '../support/api';
import { browserUnavailableToThisUser, launchBrowser } from '../support/browser';

const IBM_TEXT =
  'International Business Machines (IBM) built the first hard disk drive in San Jose. IBM sold the RAMAC drive to many companies. The RAMAC drive stored five megabytes of data.';
const MEMORY = `console-${Date.now().toString(36)}`;
const SHOTS = process.env.KMEM_SCREENSHOTS;
const WAIT = { timeout: 60_000 };

/** The small web site of the web-address tests: a home page linking two pages, a sitemap of them (anything else is a 404). */
const SITE: Record<string, [string, string]> = {
  '/': [
    'text/html',
    '<html><head><title>Home</title></head><body><main><p>The drive museum home page.</p><a href="/a.html">A</a> <a href="/b.html">B</a></main></body></html>',
  ],
  '/sitemap.xml': [
    'application/xml',
    '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>BASE/a.html</loc></url><url><loc>BASE/b.html</loc></url></urlset>',
  ],
  '/a.html': ['text/html', '<html><head><title>A</title></head><body><main><p>Page A tells of the RAMAC drive.</p></main></body></html>'],
  '/b.html': ['text/html', '<html><head><title>B</title></head><body><main><p>Page B tells of San Jose.</p></main></body></html>'],
};

let browser: Browser | undefined;
let page: Page;
/** Why the browser did not start: every test then fails with it (none is skipped). */
let launchError: unknown;
let gone: Server;

async function shot(name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

describe.skipIf(browserUnavailableToThisUser)('the console in a browser', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    gone = createServer((req, res) => {
      const page = SITE[req.url ?? ''];
      if (!page) return res.writeHead(404, { 'content-type': 'text/plain' }).end('gone');
      const base = `http://127.0.0.1:${(gone.address() as AddressInfo).port}`;
      return res.writeHead(200, { 'content-type': page[0] }).end(page[1].replaceAll('BASE', base));
    });
    await new Promise<void>((done) => gone.listen(0, '127.0.0.1', done));
    try {
      browser = await launchBrowser();
      page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    } catch (error) {
      launchError = error;
    }
  });

  beforeEach(() => {
    if (launchError) throw launchError;
  });

  afterAll(async () => {
    await browser?.close();
    gone?.close();
  });

  it("refuses a wrong key in the API's words, then signs in and shows the token budget", async () => {
    await page.goto(`${env().url}/console/`);
    await page.getByLabel('API key', { exact: true }).fill('not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('X-API-Key: is not a valid API key');
    await shot('sign-in');
    await page.getByLabel('API key', { exact: true }).fill(env().keyConsole);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .getByTestId('budget')
      .filter({ hasText: /tenant-console: 0 used \/ [\d,]+ remaining/ })
      .waitFor();
    expect(page.url()).not.toContain(env().keyConsole);
    expect(await page.evaluate("sessionStorage.getItem('kmem.apiKey')")).toBe(env().keyConsole);
  });

  it("creates a graph memory, showing the API's error next to its field first", async () => {
    await page.getByRole('button', { name: 'Create memory' }).click();
    await expect.poll(() => page.locator('[data-field-error=name]').textContent()).toMatch(/^name: /);
    await page.getByLabel('Name', { exact: true }).fill(MEMORY);
    await page.getByLabel('Ontology', { exact: true }).selectOption('essays');
    await page.getByRole('button', { name: 'Create memory' }).click();
    await page.locator(`tr[data-memory="${MEMORY}"]`).locator('.badge', { hasText: 'select' }).waitFor();
  });

  it('uploads a dropped document with progress and ingests it into the memory, showing the budget check', async () => {
    await page.getByRole('link', { name: 'Files' }).click();
    // the page's own DataTransfer holding a File, as a drag from the desktop delivers it (browser-side code)
    const dropped = await page.evaluateHandle(
      `(() => { const t = new DataTransfer(); t.items.add(new File([${JSON.stringify(IBM_TEXT)}], 'ibm.txt', { type: 'text/plain' })); return t; })()`,
    );
    await page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer: dropped });
    await page.getByRole('progressbar', { name: 'uploading ibm.txt' }).waitFor();
    const row = page.locator('tr[data-file="ibm.txt"]');
    await row.locator('.badge', { hasText: 'ready' }).waitFor(WAIT);
    await row.getByRole('checkbox').check();
    await page.getByLabel('Memory', { exact: true }).selectOption({ label: `${MEMORY} (graph)` });
    await page.getByRole('button', { name: 'Add 1 file(s) and start ingestion' }).click();
    await expect
      .poll(() => page.getByTestId('ingestion-started').textContent(), WAIT)
      .toMatch(/1 file\(s\), [\d,]+ tokens; [\d,]+ of [\d,]+ remain/);
    await shot('files');
    await page.getByRole('link', { name: 'Memories' }).click();
    await page.locator(`tr[data-memory="${MEMORY}"]`).locator('.badge', { hasText: 'ready' }).waitFor(WAIT);
    await shot('memories');
  });

  it('sends a large dropped file straight to its presigned address, with progress', async () => {
    const puts: string[] = [];
    page.on('request', (request) => request.method() === 'PUT' && puts.push(request.url()));
    const dropped = await page.evaluateHandle(
      `(() => { const t = new DataTransfer(); t.items.add(new File([new Uint8Array(6 * 1024 * 1024)], 'big.bin')); return t; })()`,
    );
    await page.getByRole('link', { name: 'Files' }).click();
    await page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer: dropped });
    await page.locator('.uploads li').filter({ hasText: 'big.bin' }).filter({ hasText: 'created' }).waitFor(WAIT);
    await page.locator('tr[data-file="big.bin"]').waitFor(WAIT);
    expect(puts).toHaveLength(1);
    expect(puts[0]?.startsWith(env().url)).toBe(false); // the store's address, not the API's
    await page.getByRole('link', { name: 'Memories' }).click();
  });

  it('asks the memory and shows the passage with its score and a link to its source file', async () => {
    await page.locator(`tr[data-memory="${MEMORY}"]`).getByRole('link', { name: 'Ask' }).click();
    await page.getByLabel('Query', { exact: true }).fill('who built the first hard disk drive');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page.locator('.passage').filter({ hasText: 'built the first hard disk drive in San Jose' }).first().waitFor(WAIT);
    await shot('ask');
    await page.locator('.sources').getByRole('link', { name: 'ibm.txt' }).click();
    await page.locator('pre.content').filter({ hasText: 'RAMAC drive stored five megabytes' }).waitFor(WAIT);
  });

  it("shows the budget check's refusal in the API's words when the account's tokens do not suffice", async () => {
    const key = env().keyConsole;
    // more tokens than the account's whole budget (1,000,000), made through the API: only the refusal is the browser's
    const big = await textFile('budget-buster.txt', 'word '.repeat(1_100_000), key);
    await waitFor(`/files/get/${big.id}`, (body) => body.data.state !== 'pending' && body.data.state !== 'processing', key, 60_000);
    const memory = (await post('/memories/create', { name: `${MEMORY}-budget`, memoryType: 'vector' }, key)).body.data;
    expect((await post('/memories/add-files', { memoryID: memory.id, files: [big.id] }, key)).status).toBe(200);
    const refused = await post('/memories/start-ingestion', { memoryID: memory.id }, key); // refusals change nothing
    expect(refused.status).toBe(400);
    await page.goto(`${env().url}/console/#/files`);
    const ingest = page.getByRole('form', { name: 'add to a memory and ingest' });
    // the picker was filled before the memory was made (through the API): focusing it reads the list again
    await ingest.getByLabel('Memory', { exact: true }).focus();
    await ingest.getByLabel('Memory', { exact: true }).selectOption({ label: `${MEMORY}-budget (vector)` });
    await ingest.getByRole('button', { name: 'Start ingestion' }).click();
    await expect.poll(() => ingest.getByRole('alert').textContent(), WAIT).toContain(refused.body.error);
    expect(await ingest.getByRole('alert').textContent()).toMatch(/needs [\d,]+ tokens, [\d,]+ available/);
    expect((await get(`/memories/get/${memory.id}`, key)).body.data.step).toBe('select');
  });

  it('draws the graph with WebGL, finds an entity and shows its relations and passages', async () => {
    await page.goto(`${env().url}/console/#/graph`);
    await page.getByLabel('Memory', { exact: true }).selectOption({ label: MEMORY });
    await page
      .getByTestId('graph-status')
      .filter({ hasText: /\d+ entities, \d+ relations/ })
      .waitFor(WAIT);
    // sigma mounts its canvases in an effect after the status has rendered: wait for them, do not race
    await expect.poll(() => page.locator('.graph-canvas canvas').count(), WAIT).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Run layout' }).waitFor(WAIT); // the worker's layout has settled
    const layout = (await page.evaluate("performance.getEntriesByName('kmem.graph.layout')[0]?.detail")) as
      | { iterations: number }
      | undefined;
    expect(layout?.iterations).toBeGreaterThan(0); // ForceAtlas2 ran in the layout worker and its positions were applied
    await page.getByLabel('Find an entity', { exact: true }).fill('IBM');
    await page.getByRole('button', { name: 'Find' }).click();
    await expect.poll(() => page.getByTestId('entity-name').textContent(), WAIT).toBe('International Business Machines');
    const panel = page.getByRole('complementary', { name: 'entity details' });
    expect(await panel.locator('.relations li').count()).toBeGreaterThan(0);
    await panel.locator('.passages li').filter({ hasText: 'IBM' }).first().waitFor();
    await panel.getByRole('button', { name: 'Expand neighbours' }).click();
    await shot('graph');
  });

  it("shows an entity's facts with their validity and a customer user's profile, superseded ones marked", async () => {
    const key = env().keyConsole;
    const customer = `console-traveller-${Date.now().toString(36)}`;
    const session = (await post('/sessions/create', { customerUserID: customer, metadata: [] }, key)).body.data;
    const say = (content: string, createdAt: string) =>
      post('/messages/create', { sessionID: session.id, role: 'user', content, createdAt }, key);
    await say('I live in Paris.', '2024-01-10T09:00:00Z');
    await say('Alice Martin moved to Paris.', '2024-01-11T09:00:00Z');
    await say('We moved to Berlin last week.', '2024-06-01T09:00:00Z');
    await say('Alice Martin moved to Berlin.', '2024-06-02T09:00:00Z');
    const name = `${MEMORY}-profile`;
    const memory = (await post('/memories/create', { name, memoryType: 'graph', ontology: 'culture', factExtraction: true }, key)).body
      .data;
    await post('/memories/add-sessions', { memoryID: memory.id, sessions: [session.id] }, key);
    const profilePath = `/memories/profile/${memory.id}?customerUserID=${encodeURIComponent(customer)}`;
    await waitFor(profilePath, (body) => JSON.stringify(body.data?.facts ?? []).includes('Berlin'), key, 120_000);

    await page.goto(`${env().url}/console/#/graph?memory=${memory.id}`);
    await page
      .getByTestId('graph-status')
      .filter({ hasText: /\d+ entities/ })
      .waitFor(WAIT);
    await page.getByLabel('Find an entity', { exact: true }).fill('Alice Martin');
    await page.getByRole('button', { name: 'Find' }).click();
    const facts = page.getByRole('complementary', { name: 'entity details' }).getByRole('list', { name: 'facts' });
    await facts.locator('li.current', { hasText: 'Berlin' }).getByText('since 2024-06-02').waitFor(WAIT);
    await facts.locator('li.superseded', { hasText: 'Paris' }).getByText('2024-01-11 – 2024-06-02, superseded').waitFor(WAIT);

    await page.getByLabel('Customer user', { exact: true }).fill(customer);
    await page.getByRole('button', { name: 'Show profile' }).click();
    const profile = page.getByRole('list', { name: 'profile facts' });
    await profile.locator('li.current', { hasText: 'Berlin' }).waitFor(WAIT);
    await profile.locator('li.superseded', { hasText: 'Paris' }).getByText('2024-01-10 – 2024-06-01, superseded').waitFor(WAIT);
    await shot('profile');
  });

  it("shows a failed file's reason", async () => {
    const address = `http://127.0.0.1:${(gone.address() as AddressInfo).port}/gone.html`;
    await page.goto(`${env().url}/console/#/files`);
    await page.getByLabel('Address', { exact: true }).fill(address);
    await page.getByRole('button', { name: 'Add address' }).click();
    const row = page.locator(`tr[data-file="127.0.0.1:${(gone.address() as AddressInfo).port}_gone.html"]`);
    await row.locator('.badge', { hasText: 'failed' }).waitFor(WAIT);
    expect(await row.locator('.reason').textContent()).toMatch(/404/);
  });

  it("shows a sitemap's hidden pages with their progress", async () => {
    const port = (gone.address() as AddressInfo).port;
    await page.goto(`${env().url}/console/#/files`);
    await page.getByLabel('Address', { exact: true }).fill(`http://127.0.0.1:${port}/sitemap.xml`);
    await page.getByLabel('Kind', { exact: true }).selectOption('sitemap');
    await page.getByRole('button', { name: 'Add address' }).click();
    const row = page.locator(`tr[data-file="127.0.0.1:${port}_sitemap.xml"]`);
    await row.getByRole('button', { name: 'View' }).click();
    const details = page.getByRole('complementary', { name: 'file details' });
    await details.getByText('2 of 2 processed').waitFor(WAIT);
    expect(await details.getByRole('progressbar', { name: 'pages processed' }).getAttribute('value')).toBe('1');
  });

  it("adds a crawl and shows its hidden pages' progress", async () => {
    const port = (gone.address() as AddressInfo).port;
    await page.goto(`${env().url}/console/#/files`);
    await page.getByLabel('Address', { exact: true }).fill(`http://127.0.0.1:${port}/`);
    await page.getByLabel('Kind', { exact: true }).selectOption('website_bulk');
    await page.getByRole('button', { name: 'Add address' }).click();
    const row = page.locator(`tr[data-file="127.0.0.1:${port}"]`);
    await row.locator('td', { hasText: 'website_bulk' }).waitFor(WAIT);
    await row.getByRole('button', { name: 'View' }).click();
    const details = page.getByRole('complementary', { name: 'file details' });
    await details.getByText('3 of 3 processed').waitFor(WAIT); // the home page and the two it links to
    expect(await details.getByRole('progressbar', { name: 'pages processed' }).getAttribute('value')).toBe('1');
    await row.locator('.badge', { hasText: 'ready' }).waitFor(WAIT);
  });

  it('lists conversations and searches messages', async () => {
    const key = env().keyConsole;
    await post('/sessions/create', { sessionID: 'console-chat', customerUserID: 'ada', metadata: [] }, key);
    await post('/messages/create', { sessionID: 'console-chat', role: 'user', content: 'Which drive did IBM sell?' }, key);
    await post('/messages/create', { sessionID: 'console-chat', role: 'assistant', content: 'IBM sold the RAMAC drive.' }, key);
    // the account's message index follows writes once the worker has built it: behind a busy queue that takes a while
    await waitFor('/messages/search?query=RAMAC&role=assistant', (body) => (body.messages?.length ?? 0) > 0, key, 120_000);
    await waitFor('/sessions/summary/console-chat', (body) => body.data?.messageCount === 2, key, 120_000);
    await page.goto(`${env().url}/console/#/conversations?session=console-chat`);
    await page.getByRole('link', { name: 'console-chat' }).waitFor(WAIT);
    await page.locator('.messages li').filter({ hasText: 'IBM sold the RAMAC drive.' }).waitFor(WAIT);
    const summary = page.getByRole('region', { name: 'session summary' });
    await summary.getByText('2 messages', { exact: false }).waitFor(WAIT);
    await summary.getByText('IBM sold the RAMAC drive.', { exact: false }).first().waitFor(WAIT);
    await page.getByRole('form', { name: 'search messages' }).getByLabel('Query', { exact: true }).fill('RAMAC');
    await page.getByRole('form', { name: 'search messages' }).getByLabel('Role', { exact: true }).selectOption('assistant');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('.messages li').filter({ hasText: /score/ }).first().waitFor(WAIT);
    await shot('conversations');
  });

  it("shows a session's messages, and a line saying so, when its summary cannot be read", async () => {
    // the API answering the summary with a server error (the browser's request answered here, not by kmem)
    await page.route('**/sessions/summary/console-chat', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ status: 'error', message: 'unavailable' }) }),
    );
    try {
      await page.goto(`${env().url}/console/#/conversations?session=console-chat`);
      await page.reload(); // a fresh load of the app, so the session is read again
      await page.locator('.messages li').filter({ hasText: 'IBM sold the RAMAC drive.' }).waitFor(WAIT);
      await page.getByRole('alert').filter({ hasText: 'The summary could not be read' }).waitFor(WAIT);
      expect(await page.getByRole('region', { name: 'session summary' }).count()).toBe(0);
    } finally {
      await page.unroute('**/sessions/summary/console-chat');
    }
  });

  it("pages through a long session's messages", async () => {
    const key = env().keyConsole;
    await post('/sessions/create', { sessionID: 'console-long', customerUserID: 'ada', metadata: [] }, key);
    for (let i = 0; i < 101; i += 25) {
      const batch = Array.from({ length: Math.min(25, 101 - i) }, (_, k) => `long session line ${i + k}`);
      await Promise.all(batch.map((content) => post('/messages/create', { sessionID: 'console-long', role: 'user', content }, key)));
    }
    const second = await get('/messages/list?sessionID=console-long&limit=100', key);
    const beyond = await get(`/messages/list?sessionID=console-long&limit=100&nextToken=${encodeURIComponent(second.body.nextToken)}`, key);
    expect(beyond.body.messages).toHaveLength(1);
    await page.goto(`${env().url}/console/#/conversations?session=console-long`);
    const list = page.getByLabel('session messages').locator('.messages li');
    await expect.poll(() => list.count(), WAIT).toBe(100);
    await page.getByRole('navigation', { name: 'message pages' }).getByRole('button', { name: 'Next page' }).click();
    await list.filter({ hasText: beyond.body.messages[0].content }).waitFor(WAIT);
  });

  it("shows a refused question in the API's words (GET /memory answers {detail}, read by the typed client)", async () => {
    const key = env().keyConsole;
    const asked = await post('/memories/create', { name: `${MEMORY}-asked`, memoryType: 'vector' }, key);
    const id = String(asked.body.data.id);
    await page.goto(`${env().url}/console/#/ask?memory=${id}`);
    await page
      .getByLabel('Memory', { exact: true })
      .locator(`option[value="${id}"]`)
      .waitFor({ state: 'attached', ...WAIT });
    expect((await del(`/memories/delete/${id}`, key)).status).toBe(200); // deleted while the form is open
    const refused = await get(`/memory?memoryID=${id}&query=RAMAC`, key);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(typeof refused.body.detail).toBe('string');
    await page.getByLabel('Query', { exact: true }).fill('RAMAC');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent(), WAIT).toBe(refused.body.detail);
  });

  it('deletes a memory only after a confirmation, keyboard first', async () => {
    const doomed = `${MEMORY}-gone`;
    await post('/memories/create', { name: doomed, memoryType: 'vector' }, env().keyConsole);
    await page.goto(`${env().url}/console/#/memories`);
    const row = page.locator(`tr[data-memory="${doomed}"]`);
    await row.getByRole('button', { name: 'Delete' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate('document.activeElement?.textContent')).toBe('Cancel');
    await page.keyboard.press('Enter');
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.getByRole('button', { name: 'Yes, delete' }).click();
    await row.waitFor({ state: 'detached', timeout: 10_000 });
    await page.locator(`tr[data-memory="${MEMORY}"]`).waitFor();
  });

  it('offers every memory in its pickers, past the first page of 100', async () => {
    const key = env().keyConsole;
    const names = Array.from({ length: 101 }, (_, i) => `${MEMORY}-many-${String(i).padStart(3, '0')}`);
    for (let i = 0; i < names.length; i += 20) {
      await Promise.all(names.slice(i, i + 20).map((name) => post('/memories/create', { name, memoryType: 'vector' }, key)));
    }
    const all = await listAll('/memories/list?limit=100', 'memories', key);
    expect(all.length).toBeGreaterThan(100);
    await page.goto(`${env().url}/console/#/ask`);
    const picker = page.getByLabel('Memory', { exact: true });
    await expect.poll(() => picker.locator('option').count(), WAIT).toBe(all.length);
    for (const name of [names[0], names[100]]) await picker.selectOption({ label: `${name} (vector)` });
  });

  it("shows and edits a file's metadata, and asks with a filter, showing a bad condition in the API's words", async () => {
    const key = env().keyConsole;
    const file = await textFile('tagged.txt', 'The RAMAC drive weighed about a ton.', key);
    await waitFor(`/files/get/${file.id}`, (body) => body.data?.state === 'ready', key, 60_000);
    await page.goto(`${env().url}/console/#/files?file=${file.id}`);
    await page.getByRole('button', { name: 'Edit metadata' }).click(WAIT);
    await page.getByLabel('Metadata', { exact: true }).fill('lang = en\nshelf = b2');
    await page.getByRole('button', { name: 'Save metadata' }).click();
    await page.locator('[data-testid="file-metadata"] dd').filter({ hasText: 'b2' }).waitFor(WAIT);
    expect((await get(`/files/get/${file.id}`, key)).body.data.metadata).toEqual([
      { key: 'lang', value: 'en' },
      { key: 'shelf', value: 'b2' },
    ]);
    await page.goto(`${env().url}/console/#/ask`);
    await page.getByLabel('Query', { exact: true }).fill('RAMAC drive');
    await page.getByLabel('Filter', { exact: true }).fill('{"colour":["red"]}');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page.locator('.error').filter({ hasText: "unknown condition 'colour'" }).waitFor(WAIT);
  });
});
