/** Upsert by source over HTTP: `sourceKey` on files/create skips unchanged content and replaces changed content everywhere. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { get, INGEST_WAIT_MS, ingest, post, upload, waitFor, type Json } from '../support/api';
import { testDeps } from '../support/stores';

const stores = testDeps();
let key: string;
let accountId: string;

beforeAll(async () => {
  const created = await createAccount(stores, `sources-${process.pid}-${Date.now()}`);
  key = created.apiKey;
  accountId = created.account.id;
});
afterAll(() => stores.documentClient.destroy());

async function createFromSource(sourceKey: string, name: string, text: string): Promise<Json> {
  const uploaded = await upload(name, text, key);
  expect(uploaded.status).toBe(200);
  const created = await post('/files/create', { name, key: uploaded.body.data.key, fileType: 'text', sourceKey }, key);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return { ...created.body.data, uploadKey: uploaded.body.data.key };
}

const ask = (memoryId: string, query: string) => get(`/memory/?memoryID=${memoryId}&query=${encodeURIComponent(query)}&topK=10`, key);
const remaining = async () => (await stores.accounts.get(accountId))?.tokensRemaining ?? NaN;
const readyFile = (id: string) =>
  waitFor(`/files/get/${id}`, (b) => b.data?.state === 'ready' || b.data?.state === 'failed', key, INGEST_WAIT_MS);
const graphNames = async (id: string) =>
  JSON.stringify(((await get(`/memories/graph/${id}?limit=100`, key)).body.nodes as Json[]).map((n) => n.name ?? n.label));

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

describe('files/create with sourceKey', () => {
  it('leaves a file alone when the same source comes again unchanged, and frees the unused upload', async () => {
    const first = await createFromSource('notes/harbour.txt', 'harbour.txt', 'The harbour master logs every ferry at noon.');
    const ready = await readyFile(first.id);
    const again = await createFromSource('notes/harbour.txt', 'harbour.txt', 'The harbour master logs every ferry at noon.');
    expect(again).toMatchObject({ id: first.id, state: 'ready', updatedAt: ready.data.updatedAt, bronzeKey: first.uploadKey });
    const reuse = await post('/files/create', { name: 'x.txt', key: again.uploadKey, fileType: 'text' }, key);
    expect(reuse.body.error).toMatch(/^key: /); // the unneeded upload was discarded
    const detail = await get(`/files/get/${first.id}`, key);
    expect(detail.body.data).toMatchObject({ sourceKey: 'notes/harbour.txt', state: 'ready' });
  });

  it('refuses a sourceKey longer than 1,024 characters, naming the field', async () => {
    const uploaded = await upload('long.txt', 'x', key);
    const answer = await post(
      '/files/create',
      { name: 'long.txt', key: uploaded.body.data.key, fileType: 'text', sourceKey: 'k'.repeat(1025) },
      key,
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/^sourceKey: /);
  });

  it('replaces a changed file in every memory that holds it, charging only the new tokens', async () => {
    const oldText = 'Keeper Anselm Broek counts passing ships from the Vlieland lighthouse at dawn.';
    const file = await createFromSource('kb/lighthouse', 'lighthouse.txt', oldText);
    await readyFile(file.id);
    const vector = (await post('/memories/create', { name: 'v', memoryType: 'vector' }, key)).body.data as Json;
    const graph = (await post('/memories/create', { name: 'g', memoryType: 'graph', ontology: 'essays', factExtraction: true }, key)).body
      .data as Json;
    await ingest(vector, [file.id], key);
    await ingest(graph, [file.id], key);
    expect(JSON.stringify((await ask(vector.id, 'lighthouse ships')).body.payload)).toContain('Vlieland lighthouse');
    expect(await graphNames(graph.id)).toContain('Vlieland');
    const before = await remaining();

    const newText = 'The night baker Oriel Hask kneads rye bread in Tallinn before the market opens.';
    const changed = await createFromSource('kb/lighthouse', 'lighthouse.txt', newText);
    expect(changed).toMatchObject({ id: file.id, state: 'pending', bronzeKey: changed.uploadKey });
    const processed = await readyFile(file.id);
    expect(processed.data.content).toBe(newText);
    const jobsDone = async (memoryId: string) => {
      const jobs = await stores.jobs.listByMemory(accountId, memoryId);
      return jobs.length === 2 && jobs.every((job) => job.reconciled);
    };
    for (const memory of [vector, graph]) await until(() => jobsDone(memory.id), `the refresh of ${memory.name}`);

    for (const memory of [vector, graph]) {
      const hits = JSON.stringify((await ask(memory.id, 'lighthouse ships baker bread')).body);
      expect(hits).toContain('kneads rye bread');
      expect(hits).not.toContain('Vlieland');
      expect((await get(`/memories/get/${memory.id}`, key)).body.data).toMatchObject({ step: 'ready', chunkCount: 1, fileCount: 1 });
    }
    const names = await graphNames(graph.id);
    expect(names).toContain('Tallinn');
    expect(names).not.toContain('Vlieland');
    expect(names).not.toContain('Broek');
    // each memory is charged once for the new text; nothing for the old text again
    expect(before - (await remaining())).toBe(2 * (processed.data.tokens as number));

    const same = await createFromSource('kb/lighthouse', 'lighthouse.txt', newText);
    expect(same).toMatchObject({ id: file.id, state: 'ready' });
    expect(await remaining()).toBe(before - 2 * (processed.data.tokens as number));
  });
});
