/**
 * The stage's re-sync schedule, on the worker's side: one `web.resync-due` message queues a `file.resync`
 * for every ready top-level web source of every account, and for nothing else (a text file, a sitemap's
 * pages). The files are made through the API against a site on 127.0.0.1.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { childIdOf } from '../../functions/core/ingest/hidden-files';
import type { WorkMessage } from '../../functions/core/work';
import { runWork } from '../../functions/worker/dispatch';
import { post, textFile, waitFor, type Json } from '../support/api';
import { testDeps } from '../support/stores';
import { page, send, startSite, type TestSite } from '../web/site-server';

const deps = testDeps();
let site: TestSite;

beforeAll(async () => {
  site = await startSite({
    '/news': (_req, res) => send(res, 200, 'text/html', page('News', '<main><p>The harbour reopens after the storm repairs.</p></main>')),
    '/sitemap.xml': (_req, res) =>
      send(
        res,
        200,
        'application/xml',
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.origin}/news</loc></url></urlset>`,
      ),
  });
});
afterAll(async () => {
  await site.close();
  deps.documentClient.destroy();
});

async function readyFile(body: Json): Promise<string> {
  const created = await post('/files/create', body);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = created.body.data.id as string;
  await waitFor(`/files/get/${id}`, (b) => b.data?.state === 'ready');
  return id;
}

it('queues a re-sync of every ready web source, and of nothing else', async () => {
  const website = await readyFile({ name: 'news', fileType: 'website', external_uri: `${site.origin}/news` });
  const sitemap = await readyFile({ name: 'map', fileType: 'sitemap', external_uri: `${site.origin}/sitemap.xml` });
  await waitFor(`/files/get/${sitemap}`, (b) => b.data?.hiddenFilesProcessed === 1);
  const text = (await textFile('notes.txt', 'Not a web source at all.')).id as string;

  await runWork(deps.worker, { kind: 'web.resync-due' }, { attempt: 1, workId: `scheduled-${Date.now()}` });
  const queued: WorkMessage[] = [];
  for (let batch = await deps.localQueue.receive(10, 60); batch.length; batch = await deps.localQueue.receive(10, 60)) {
    queued.push(...batch.map((message) => JSON.parse(message.body) as WorkMessage));
  }
  const ids = queued.map((work) => (work.kind === 'file.resync' ? work.fileId : `not a re-sync: ${work.kind}`));
  expect(ids).toContain(website);
  expect(ids).toContain(sitemap);
  expect(ids).not.toContain(text);
  expect(ids).not.toContain(childIdOf(sitemap, `${site.origin}/news`));
  expect(ids.filter((id) => id.startsWith(`${sitemap}.`))).toEqual([]);
  expect(new Set(ids).size).toBe(ids.length);
}, 60_000);
