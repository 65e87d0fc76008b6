/**
 * Export and restore through the API (issue #26): round trips of a graph and a vector memory with a
 * conversation (a fixed query set answers the same passages, facts and sources, under new ids), a restore
 * into another account, refused archives (foreign, truncated, path traversal) that leave nothing behind,
 * and an archive of the oldest shape (texts only).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { env, get, type Json, post, textFile, upload, waitFor } from '../support/api';
import { makeTarGz } from '../support/archives';
import { itemsHolding } from '../support/erasure-scan';
import { testDeps } from '../support/stores';

let stores: ReturnType<typeof testDeps>;
beforeAll(() => {
  stores = testDeps();
});
afterAll(() => stores.documentClient.destroy());

const QUERIES = ['who built the first hard disk drive', 'what did the Zurich laboratory invent', 'where does Miso sleep', 'sardines'];

async function say(sessionID: string, role: string, content: string, key?: string): Promise<Json> {
  const answer = await post('/messages/create', { sessionID, role, content }, key);
  if (answer.status !== 200) throw new Error(JSON.stringify(answer.body));
  return answer.body.data;
}

/** A memory with two files and an attached conversation, ready. */
async function populated(memoryType: 'graph' | 'vector'): Promise<Json> {
  const first = await textFile(
    'ibm.txt',
    'International Business Machines (IBM) built the first hard disk drive in San Jose. IBM sold the RAMAC drive to many companies.',
  );
  const second = await textFile(
    'zurich.txt',
    'IBM opened a research laboratory in Zurich. The Zurich laboratory invented the scanning tunneling microscope.',
  );
  const settings = memoryType === 'graph' ? { ontology: 'essays', factExtraction: true } : { chunkSize: 200 };
  const memory = (await post('/memories/create', { name: `${memoryType} source`, memoryType, ...settings })).body.data;
  await post('/memories/add-files', { memoryID: memory.id, files: [first.id, second.id] });
  await post('/memories/start-ingestion', { memoryID: memory.id });
  // a graph memory's first build loads the language model: on a busy machine that takes a while
  const ready = await waitFor(
    `/memories/get/${memory.id}`,
    (body) => body.data?.step !== 'ingesting' && body.data?.step !== 'queued',
    undefined,
    90_000,
  );
  expect(ready.data).toMatchObject({ step: 'ready' });
  const session = (await post('/sessions/create', { customerUserID: 'cust-export' })).body.data;
  await say(session.id, 'user', 'My cat Miso sleeps on the radiator and loves sardines.');
  await say(session.id, 'assistant', 'Sardines are a fine treat for Miso.');
  await post('/memories/add-sessions', { memoryID: memory.id, sessions: [session.id] });
  await waitFor(
    `/memory/?memoryID=${memory.id}&query=Miso`,
    (body) => JSON.stringify(body.payload ?? []).includes('radiator'),
    undefined,
    90_000,
  );
  return memory;
}

/** What a query set answers, with sources (of passages and facts) named by their name (ids differ after a restore). */
async function answers(memoryId: string, key?: string): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const query of QUERIES) {
    const body = (await get(`/memory/?memoryID=${memoryId}&query=${encodeURIComponent(query)}&facts=true`, key)).body;
    // a session's source is named after its id, which a restore changes
    const nameOf = (source: Json): string => (String(source.name).startsWith('session ') ? 'session' : source.name);
    const names = new Map((body.sources as Json[]).map((source) => [source.id, nameOf(source)]));
    out.push({
      passages: (body.payload as Json[]).map((p) => ({ content: p.content, score: p.score.toFixed(6), source: names.get(p.sourceID) })),
      // a fact's source is a file or message id, which a restore changes: named like the passages' sources
      facts: (body.facts as Json[]).map(({ sourceID, ...fact }) => ({
        ...fact,
        source: names.get(sourceID) ?? (sourceID ? 'unlisted' : null),
      })),
      sources: (body.sources as Json[]).map(nameOf),
    });
  }
  return out;
}

/** Exports a memory and answers the archive's bytes (read through the export's address). */
async function exported(memoryId: string, key?: string): Promise<Buffer> {
  const started = await post(`/memories/export/${memoryId}`, {}, key);
  expect(started.status).toBe(200);
  const exportId = started.body.data.exportID;
  const done = await waitFor(`/memories/export/${exportId}`, (body) => body.data?.state !== 'running', key, 60_000);
  expect(done.data).toMatchObject({ exportID: exportId, memoryID: memoryId, state: 'completed', error: null });
  const response = await fetch(done.data.url);
  expect(response.status).toBe(200);
  const bytes = Buffer.from(await response.arrayBuffer());
  expect(bytes.length).toBe(done.data.size);
  return bytes;
}

/** Uploads an archive and starts a restore of it. */
async function restore(bytes: Uint8Array, key?: string, name?: string) {
  const uploaded = await upload('memory.kmem.tar.gz', bytes, key, 'application/gzip');
  expect(uploaded.status).toBe(200);
  return post('/memories/restore', { archiveKey: uploaded.body.data.key, ...(name ? { name } : {}) }, key);
}

async function restored(bytes: Uint8Array, key?: string): Promise<Json> {
  const started = await restore(bytes, key, 'restored');
  expect(started.status).toBe(200);
  const memoryId = started.body.data.memoryID;
  return (await waitFor(`/memories/get/${memoryId}`, (body) => body.data?.step !== 'ingesting', key, 90_000)).data;
}

/** Every table item of the account that names the memory, and every object under its prefix. */
async function leftovers(accountId: string, memoryId: string): Promise<{ items: Json[]; objects: string[] }> {
  // every page of the table (one Scan answers 1 MB at most: the memory's item may be on a later page)
  const items = (await itemsHolding(stores, [memoryId])).filter((item) => String(item.pk).startsWith(`A#${accountId}#`));
  return { items, objects: await stores.objects.list(`gold/${accountId}/memories/${memoryId}/`) };
}

/** Round trips build graph memories and restore them on a shared machine. */
const SLOW = 180_000;

describe('export and restore', () => {
  it(
    'round-trips a graph memory with a conversation: the same passages, facts and sources under new ids',
    async () => {
      const memory = await populated('graph');
      const before = await answers(memory.id);
      const back = await restored(await exported(memory.id));
      expect(back).toMatchObject({ step: 'ready', name: 'restored', memoryType: 'graph', lastError: null });
      expect(back.id).not.toBe(memory.id);
      const source = (await get(`/memories/get/${memory.id}`)).body.data;
      expect({ entities: back.entityCount, facts: back.factCount, chunks: back.chunkCount }).toEqual({
        entities: source.entityCount,
        facts: source.factCount,
        chunks: source.chunkCount,
      });
      expect(await answers(back.id)).toEqual(before);
    },
    SLOW,
  );

  it(
    'restores a vector memory into another account, its files and messages under new ids',
    async () => {
      const memory = await populated('vector');
      const before = await answers(memory.id);
      const back = await restored(await exported(memory.id), env().keyB);
      expect(back).toMatchObject({ step: 'ready', memoryType: 'vector', chunkSize: 200 });
      expect(await answers(back.id, env().keyB)).toEqual(before);
      const files = (await get('/files/list?limit=100', env().keyB)).body.files as Json[];
      const names = files.filter((file) => ['ibm.txt', 'zurich.txt'].includes(file.name));
      expect(names.length).toBeGreaterThanOrEqual(2);
      const file = (await get(`/files/get/${names[0]?.id}`, env().keyB)).body.data;
      expect(file.content).toMatch(/IBM/);
    },
    SLOW,
  );

  it(
    'refuses a foreign tarball at once, creating nothing',
    async () => {
      // an account of its own: the shared one gains the memories of the test files running beside this one
      const { apiKey, account } = await createAccount(stores, `export-restore-${process.pid}-${Date.now()}`);
      const foreign = await restore(await makeTarGz({ 'README.md': '# not a kmem export' }), apiKey);
      expect(foreign.status).toBe(400);
      expect(foreign.body.error).toMatch(/archiveKey: archive refused: not a kmem export/);
      const future = await restore(
        await makeTarGz({ 'manifest.json': JSON.stringify({ format: 'kmem-export', version: 99, memory: {} }) }),
        apiKey,
      );
      expect(future.body.error).toMatch(/format version 99 is not one this kmem reads/);
      expect((await get('/memories/list?limit=100', apiKey)).body.memories).toEqual([]);
      expect(await stores.objects.list(`gold/${account.id}/`)).toEqual([]);
    },
    SLOW,
  );

  it(
    'fails a truncated and a path-traversal archive, leaving nothing but the failed memory',
    async () => {
      const memory = await populated('vector');
      const whole = await exported(memory.id);
      const truncated = whole.subarray(0, Math.floor(whole.length * 0.8));
      const manifest = JSON.stringify({
        format: 'kmem-export',
        version: 1,
        memory: { name: 'evil', memoryType: 'vector' },
        embedder: null,
      });
      const traversal = await makeTarGz([
        ['manifest.json', manifest],
        ['files/00000.jsonl', JSON.stringify({ id: 'f1', name: 'a.txt', text: 'planted text' })],
        ['../../etc/passwd', 'root:x:0:0'],
      ]);
      for (const [bytes, reason] of [
        [truncated, /archive refused|truncated/],
        [traversal, /leaves the archive/],
      ] as const) {
        const failed = await restored(bytes);
        expect(failed.step).toBe('failed');
        expect(failed.lastError).toMatch(reason);
        expect(failed).toMatchObject({ chunkCount: 0, fileCount: 0 });
        const left = await leftovers(failed.organizationID, failed.id);
        expect(left.objects).toEqual([]);
        expect(left.items.map((item) => item.kind)).toEqual(['memory']);
      }
    },
    SLOW,
  );

  it(
    'restores an archive of the oldest shape (a manifest, texts and the end marker), indexing it offline',
    async () => {
      const manifest = { format: 'kmem-export', version: 1, memory: { name: 'old', memoryType: 'vector', chunkSize: 500 } };
      const lines = [{ id: 'old-1', name: 'lighthouse.txt', text: 'The lighthouse keeper logged every passing ship in a green notebook.' }];
      const archive = await makeTarGz([
        ['manifest.json', JSON.stringify(manifest)],
        ['files/00000.jsonl', lines.map((line) => JSON.stringify(line)).join('\n')],
        ['end.json', JSON.stringify({ files: 1, sessions: 0, messages: 0, chunks: 0 })],
      ]);
      const back = await restored(archive);
      expect(back).toMatchObject({ step: 'ready', name: 'restored', chunkCount: 1, fileCount: 1 });
      const found = (await get(`/memory/?memoryID=${back.id}&query=${encodeURIComponent('green notebook')}`)).body;
      expect(found.payload[0].content).toMatch(/lighthouse keeper/);
      expect(found.sources[0].name).toBe('lighthouse.txt');
    },
    SLOW,
  );
});
