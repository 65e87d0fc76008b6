/**
 * A warm query ranks over the memory record its container last read while it reads the record again
 * (memory-guess.ts): the ranking starts before the read answers, and yet the answer is always that of the
 * record read: a file removed from the memory, a new index version and a deleted memory show at the very
 * next query.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainQueue } from '../support/drain-queue';
import { testConfig, testDeps } from '../support/stores';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { createFile, uploadFile } from '../../functions/core/use-cases/files';
import { createMemory, deleteMemory } from '../../functions/core/use-cases/memories';
import { addFiles, removeFileFromMemory } from '../../functions/core/use-cases/memory-files';
import { startIngestion } from '../../functions/core/use-cases/ingestion';
import { retrieveFromMemory } from '../../functions/core/use-cases/retrieve-memory';
import { NotFoundError } from '../../functions/core/errors';
import type { MemoryRecordReader } from '../../functions/core/ports';

const deps = testDeps(testConfig({ KMEM_GRAPH_WORD_VECTORS: 'false', KMEM_EMBEDDER: 'none' }));
afterAll(() => deps.documentClient.destroy());

let accountId = '';
let memoryId = '';

async function addText(name: string, text: string): Promise<string> {
  const upload = await uploadFile(deps, accountId, { name, contentType: 'text/plain', bytes: Buffer.from(text) });
  const fileId = (await createFile(deps, accountId, { name, key: upload.key, fileType: 'text' })).id;
  await drainQueue(deps);
  await addFiles(deps, accountId, memoryId, [fileId]);
  await startIngestion(deps, accountId, memoryId);
  await drainQueue(deps);
  return fileId;
}

beforeAll(async () => {
  accountId = (await createAccount(deps, `guess-${process.pid}-${Date.now()}`)).account.id;
  memoryId = (await createMemory(deps, accountId, { name: 'lighthouses', memoryType: 'vector' })).id;
  await addText('north.txt', 'The north lighthouse keeper trims the lamp wick every evening.');
}, 60_000);

const ask = (query: string, on = deps) => retrieveFromMemory(on, accountId, { memoryId, query, topK: 5, facts: false, assisted: false });

describe('a warm query ranking over the memory record last read', () => {
  it('starts ranking before the record read answers, and answers as the record read says', async () => {
    await ask('lighthouse keeper'); // the container reads (and keeps) the record
    const events: string[] = [];
    const slowRecords: MemoryRecordReader = {
      memoryAndSourceVersion: (account, id) => {
        const both = deps.memoryRecords?.memoryAndSourceVersion(account, id) ?? {
          memory: deps.memories.get(account, id),
          sourceVersion: deps.files.sourceVersion(account),
        };
        const memory = both.memory.then((record) => new Promise<typeof record>((done) => setTimeout(() => done(record), 300)));
        return { memory: memory.then((record) => (events.push('record read'), record)), sourceVersion: both.sourceVersion };
      },
    };
    const indexes = Object.create(deps.indexes) as typeof deps.indexes;
    indexes.load = (memory) => (events.push('index loaded'), deps.indexes.load(memory));
    const answer = await ask('lighthouse keeper', { ...deps, memoryRecords: slowRecords, indexes });
    expect(events).toEqual(['index loaded', 'record read']);
    expect(answer.payload[0]?.content).toContain('north lighthouse keeper');
  });

  it('shows a new version, a removed file and a deleted memory at the next query', async () => {
    expect((await ask('lighthouse keeper')).payload).toHaveLength(1);
    const south = await addText('south.txt', 'The south lighthouse keeper polishes the brass lens at dawn.');
    expect((await ask('lighthouse keeper')).payload).toHaveLength(2);
    await removeFileFromMemory(deps, accountId, memoryId, south);
    const after = await ask('lighthouse keeper');
    expect(after.payload.map((entry) => entry.content).join(' ')).not.toContain('south');
    expect(after.sources.map((source) => source.id)).not.toContain(south);
    await deleteMemory(deps, accountId, memoryId);
    await expect(ask('lighthouse keeper')).rejects.toBeInstanceOf(NotFoundError);
  }, 60_000);
});
