/**
 * The sources of `GET /memory/` (retrieveFromMemory): every file behind the payload, read back in one
 * batched read (then kept per account source version), with its name and address, best first; a payload
 * entry names its source; a file deleted after the index was built, and after its record was kept, is left
 * out of the sources (and its passages lose their sourceId).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainQueue } from '../support/drain-queue';
import { testConfig, testDeps } from '../support/stores';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { createFile, uploadFile } from '../../functions/core/use-cases/files';
import { createMemory } from '../../functions/core/use-cases/memories';
import { addFiles } from '../../functions/core/use-cases/memory-files';
import { startIngestion } from '../../functions/core/use-cases/ingestion';
import { retrieveFromMemory } from '../../functions/core/use-cases/retrieve-memory';

const deps = testDeps(testConfig({ KMEM_GRAPH_WORD_VECTORS: 'false', KMEM_EMBEDDER: 'none' }));
afterAll(() => deps.documentClient.destroy());

const DOCS: Record<string, string> = Object.fromEntries(
  Array.from({ length: 12 }, (_, i) => [
    `harbour-${i}.txt`,
    `Harbour ${i} shelters fishing boats; its lighthouse number ${i} guides ships.`,
  ]),
);

let accountId = '';
let memoryId = '';
const fileIdByName = new Map<string, string>();

beforeAll(async () => {
  accountId = (await createAccount(deps, `sources-${process.pid}-${Date.now()}`)).account.id;
  for (const [name, text] of Object.entries(DOCS)) {
    const upload = await uploadFile(deps, accountId, { name, contentType: 'text/plain', bytes: Buffer.from(text) });
    fileIdByName.set(name, (await createFile(deps, accountId, { name, key: upload.key, fileType: 'text' })).id);
  }
  await drainQueue(deps);
  memoryId = (await createMemory(deps, accountId, { name: 'harbours', memoryType: 'vector' })).id;
  await addFiles(deps, accountId, memoryId, [...fileIdByName.values()]);
  await startIngestion(deps, accountId, memoryId);
  await drainQueue(deps);
  expect((await deps.memories.get(accountId, memoryId))?.step).toBe('ready');
}, 60_000);

const ask = () =>
  retrieveFromMemory(deps, accountId, { memoryId, query: 'harbour lighthouse ships', topK: 12, facts: false, assisted: false });

describe('sources of a retrieval', () => {
  it('lists every file behind the payload once, with its name and address, best first', async () => {
    const result = await ask();
    expect(result.payload).toHaveLength(12);
    expect(result.sources.map((source) => source.name).sort()).toEqual(Object.keys(DOCS).sort());
    for (const source of result.sources) {
      expect(source.id).toBe(fileIdByName.get(source.name));
      expect(source.url).toBe(`/files/get/${source.id}`);
    }
    const scores = result.sources.map((source) => source.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(new Set(result.payload.map((entry) => entry.sourceId))).toEqual(new Set(fileIdByName.values()));
  });

  it('leaves out a file deleted after the index was built', async () => {
    const gone = fileIdByName.get('harbour-3.txt') ?? '';
    await deps.files.delete(accountId, gone);
    const result = await ask();
    expect(result.sources.map((source) => source.id)).not.toContain(gone);
    expect(result.sources).toHaveLength(11);
    const orphan = result.payload.find((entry) => entry.content.includes('Harbour 3 '));
    expect(orphan).toBeDefined();
    expect(orphan?.sourceId).toBeUndefined();
  });
});
