/**
 * The vector tier wired into ingestion, merges and queries (issue #27, docs/scale.md), through the real
 * @aws-sdk/client-s3vectors client against the S3 Vectors double on 127.0.0.1, the rest of kmem's stores
 * in memory: a memory passing the threshold moves its vectors to its own index and back below it; a
 * tiered memory answers what the same memory answers resident; filters, tombstones and merges; a crash
 * mid-batch is invisible to readers and a redelivery completes; deleting the memory (or its account) drops
 * its index; one account never reads another's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryTestDeps } from '../../support/memory';
import { startTierTwins } from '../../support/tier-twins';
import type { S3VectorsDouble } from '../../../functions/local/s3vectors-double';
import { buildAndPublishIndex } from '../../../functions/core/ingest/memory-index';
import { mergeMemory } from '../../../functions/core/ingest/merge-memory';
import { createAccount } from '../../../functions/core/use-cases/accounts';
import { eraseAccount } from '../../../functions/core/use-cases/account-erasure';
import { createMemory, deleteMemory } from '../../../functions/core/use-cases/memories';
import { retrieveFromMemory, type RetrievalQuery } from '../../../functions/core/use-cases/retrieve-memory';
import type { StoredChunk } from '../../../functions/core/stored-index/chunks';
import { type IndexManifest, readManifest } from '../../../functions/core/stored-index/manifest';
import { vectorIndexName } from '../../../functions/core/vector-tier/index-names';

const BUCKET = 'kmem-wiring-vectors';
/** Tiny, so a few files cross it: in the tier above 12 live chunks, back below 80% of it (9.6). */
const THRESHOLD = 12;

const TOPICS: Record<string, string[]> = {
  tides: ['the tide rises with the moon over the harbour', 'ocean tides follow the moon and the sun', 'low tide leaves boats on the sand'],
  owls: ['the owl hunts mice at night in the forest', 'owls see well in the dark and fly silently', 'a barn owl nests in the old church'],
  bread: [
    'rye bread needs salt water and a sour starter',
    'the baker shapes the dough before dawn',
    'fresh bread cools on the kitchen table',
  ],
  glaciers: [
    'the glacier carved a deep valley in the mountains',
    'meltwater from the ice feeds the river',
    'glaciers move slowly down the slope',
  ],
  chess: [
    'the knight moves in an L shape on the board',
    'a pawn that reaches the last rank becomes a queen',
    'castling protects the king early in the game',
  ],
  trains: [
    'the night train crosses the border at midnight',
    'steam engines burned coal to pull the wagons',
    'the station clock shows the departure time',
  ],
};

/** Each test builds and queries twin memories several times: generous on a shared, loaded machine. */
const SLOW = { timeout: 120_000 };

const QUERIES = [
  'moon and the tide',
  'owl flying at night',
  'baking rye bread',
  'ice in the valley',
  'chess queen and king',
  'train station',
];

let double: S3VectorsDouble;
let tiered: MemoryTestDeps;
let resident: MemoryTestDeps;

beforeAll(async () => {
  ({ double, tiered, resident } = await startTierTwins(BUCKET, THRESHOLD));
}, 120_000);

afterAll(async () => {
  await double?.close();
});

interface Mem {
  deps: MemoryTestDeps;
  accountId: string;
  memoryId: string;
}

async function newMemory(deps: MemoryTestDeps, name: string): Promise<Mem> {
  const accountId = (await createAccount(deps, `${name}-${process.pid}-${Date.now()}-${Math.random()}`)).account.id;
  const memory = await createMemory(deps, accountId, { name, memoryType: 'vector' });
  return { deps, accountId, memoryId: memory.id };
}

function chunksOf(fileId: string, texts: readonly string[]): StoredChunk[] {
  let at = 0;
  return texts.map((text, i) => {
    const chunk = { id: `${fileId}:${i}`, fileId, text, start: at, end: at + text.length, title: fileId };
    at += text.length + 1;
    return chunk;
  });
}

async function link(m: Mem, fileId: string): Promise<void> {
  if (await m.deps.links.get(m.accountId, m.memoryId, fileId)) return;
  const now = new Date().toISOString();
  await m.deps.links.create({
    ...{ id: `${fileId}-l`, accountId: m.accountId, memoryId: m.memoryId, fileId, type: 'file' as const },
    ...{ ingestedAt: null, createdAt: now, updatedAt: now },
  });
}

async function ingest(m: Mem, files: ReadonlyArray<readonly [string, readonly string[]]>): Promise<void> {
  for (const [fileId] of files) await link(m, fileId);
  await buildAndPublishIndex(m.deps.worker, m.accountId, m.memoryId, {
    added: new Map(files.map(([fileId, texts]) => [fileId, chunksOf(fileId, texts)])),
    changes: ({ chunkCount, fileCount }) => ({ chunkCount, fileCount }),
  });
}

async function remove(m: Mem, fileId: string): Promise<void> {
  await m.deps.links.delete(m.accountId, m.memoryId, fileId);
  await buildAndPublishIndex(m.deps.worker, m.accountId, m.memoryId, {
    added: new Map(),
    changes: ({ chunkCount, fileCount }) => ({ chunkCount, fileCount }),
  });
}

async function manifestOf(m: Mem): Promise<IndexManifest> {
  const memory = await m.deps.memories.get(m.accountId, m.memoryId);
  const root = `gold/${m.accountId}/memories/${m.memoryId}/index/`;
  return (await readManifest(m.deps.objects, root, memory?.indexPrefix ?? ''))!;
}

const liveCount = (manifest: IndexManifest): number => manifest.segments.reduce((n, e) => n + e.chunks - e.deleted.length, 0);
/** Every generation of the memory's index in the store (docs/scale.md: each move into the tier makes one). */
function indexesOf(m: Mem): string[] {
  const base = vectorIndexName({ accountId: m.accountId, memoryId: m.memoryId });
  return double.indexNames(BUCKET).filter((name) => name === base || name.startsWith(`${base}-`));
}

/** The index the memory's published version names. */
async function indexOf(m: Mem): Promise<string> {
  const generation = (await manifestOf(m)).vectorTier?.generation;
  return vectorIndexName({ accountId: m.accountId, memoryId: m.memoryId, ...(generation ? { generation } : {}) });
}

const GENERATION = expect.stringMatching(/^v\d+-[0-9a-f]{8}$/);

async function search(m: Mem, query: string, extra: Partial<RetrievalQuery> = {}): Promise<string[]> {
  const request = { memoryId: m.memoryId, query, topK: 5, facts: false, assisted: false, ...extra };
  const answer = await retrieveFromMemory(m.deps, m.accountId, request);
  return answer.payload.map((item) => item.content);
}

/** The same files, ingested in the same builds, into a tiered and a resident memory. */
async function twins(name: string, builds: ReadonlyArray<ReadonlyArray<string>>): Promise<[Mem, Mem]> {
  const pair: [Mem, Mem] = [await newMemory(tiered, name), await newMemory(resident, name)];
  for (const build of builds)
    for (const m of pair)
      await ingest(
        m,
        build.map((topic) => [topic, TOPICS[topic] ?? []] as const),
      );
  return pair;
}

describe('placement', SLOW, () => {
  it('moves a memory past the threshold into its own index, answers as resident, and moves it back below', async () => {
    const [t, r] = await twins('cross', [
      ['tides', 'owls'],
      ['bread', 'glaciers'],
    ]);
    // 12 chunks: not past the threshold yet; nothing in the store
    expect((await manifestOf(t)).vectorTier).toBeUndefined();
    expect(indexesOf(t)).toEqual([]);

    for (const m of [t, r]) await ingest(m, [['chess', TOPICS.chess ?? []]]);
    const manifest = await manifestOf(t);
    expect(manifest.vectorTier).toEqual({ dimension: expect.any(Number), generation: GENERATION });
    expect(indexesOf(t)).toEqual([await indexOf(t)]);
    expect(liveCount(manifest)).toBe(15);
    expect(double.sizeOf(BUCKET, await indexOf(t))).toBe(15);
    // the query side holds no vectors of a tiered memory: its candidates come from QueryVectors
    const loaded = await t.deps.indexes.load((await t.deps.memories.get(t.accountId, t.memoryId))!);
    expect(loaded?.retrieval.vectors).toBeNull();
    expect(loaded?.vectorTier?.dimension).toBe(manifest.vectorTier?.dimension);
    const queries = double.calls.QueryVectors ?? 0;
    for (const query of QUERIES) expect(await search(t, query)).toEqual(await search(r, query));
    expect(double.calls.QueryVectors ?? 0).toBeGreaterThanOrEqual(queries + QUERIES.length);

    // 12 live: still tiered (no flapping above 80% of the threshold); the removed file's vectors are deleted
    for (const m of [t, r]) await remove(m, 'owls');
    expect((await manifestOf(t)).vectorTier).toBeDefined();
    expect(double.sizeOf(BUCKET, await indexOf(t))).toBe(12);
    for (const query of QUERIES) expect(await search(t, query)).toEqual(await search(r, query));

    // 9 live: below 80% of 12, back in the segments, the index dropped
    for (const m of [t, r]) await remove(m, 'bread');
    expect((await manifestOf(t)).vectorTier).toBeUndefined();
    expect(indexesOf(t)).toEqual([]);
    for (const query of QUERIES) expect(await search(t, query)).toEqual(await search(r, query));
  });

  it('a build racing a move back starts again from it, and leaves no index behind', async () => {
    const [t, r] = await twins('race', [['tides', 'owls', 'bread', 'glaciers', 'chess']]);
    const generation = (await manifestOf(t)).vectorTier?.generation;
    expect(generation).toEqual(GENERATION);
    // X adds a file to the tiered version; before its first write to the tier, Y removes two files and
    // publishes first: 9 live chunks, back in the segments, the generation X writes into dropped
    const setup = t.deps.worker.vectors;
    if (!setup) throw new Error('the tiered deps have no tier');
    let raced = false;
    const moveBack = async () => {
      for (const m of [t, r]) for (const topic of ['owls', 'bread']) await remove(m, topic);
      expect((await manifestOf(t)).vectorTier).toBeUndefined();
    };
    const tier = {
      ...setup.tier,
      put: async (...args: Parameters<typeof setup.tier.put>) => {
        if (!raced) await ((raced = true), moveBack());
        return setup.tier.put(...args);
      },
    };
    const x = { ...t, deps: { ...t.deps, worker: { ...t.deps.worker, vectors: { ...setup, tier } } } };
    await ingest(x, [['trains', TOPICS.trains ?? []]]);
    await ingest(r, [['trains', TOPICS.trains ?? []]]);
    expect(raced).toBe(true);
    // X built again from Y's version: 12 live, not past the threshold from the segments; no generation left
    const after = await manifestOf(t);
    expect(after.vectorTier).toBeUndefined();
    expect(liveCount(after)).toBe(12);
    expect(indexesOf(t)).toEqual([]);
    for (const query of QUERIES) expect(await search(t, query)).toEqual(await search(r, query));
  });

  it('keeps the store to the live chunks through replacements and merges', async () => {
    const [t, r] = await twins('merges', [['tides', 'owls', 'bread', 'glaciers', 'chess']]);
    expect(double.sizeOf(BUCKET, await indexOf(t))).toBe(15);
    const changed = ['the tide turns twice a day', 'spring tides are the highest tides'];
    for (const m of [t, r]) await ingest(m, [['tides', changed]]);
    for (const m of [t, r]) await ingest(m, [['trains', TOPICS.trains ?? []]]);
    expect(double.sizeOf(BUCKET, await indexOf(t))).toBe(liveCount(await manifestOf(t)));
    expect(liveCount(await manifestOf(t))).toBe(17);
    for (const m of [t, r]) await mergeMemory(m.deps.worker, { kind: 'memory.merge', accountId: m.accountId, memoryId: m.memoryId });
    const merged = await manifestOf(t);
    expect(merged.vectorTier).toBeDefined();
    expect(double.sizeOf(BUCKET, await indexOf(t))).toBe(liveCount(merged));
    for (const query of [...QUERIES, 'the highest spring tides']) expect(await search(t, query)).toEqual(await search(r, query));
  });

  it('makes the index again when another embedder rebuilds the memory whole', async () => {
    const [t] = await twins('embedder', [['tides', 'owls', 'bread', 'glaciers', 'chess']]);
    expect((await manifestOf(t)).vectorTier?.dimension).not.toBe(8);
    // an embedder of 8 dimensions: every live chunk is embedded again in one new segment
    const embedder = {
      name: 'letters-8',
      dimensions: 8,
      embed: async (texts: readonly string[]) =>
        texts.map((text) => Float32Array.from({ length: 8 }, (_, d) => 1 + [...text].filter((c) => c.charCodeAt(0) % 8 === d).length)),
    };
    const worker = { ...t.deps.worker, indexing: { ...t.deps.worker.indexing, embedder: () => embedder } };
    await link(t, 'trains');
    await buildAndPublishIndex(worker, t.accountId, t.memoryId, {
      added: new Map([['trains', chunksOf('trains', TOPICS.trains ?? [])]]),
      changes: ({ chunkCount, fileCount }) => ({ chunkCount, fileCount }),
    });
    const manifest = await manifestOf(t);
    expect(manifest.vectorTier).toEqual({ dimension: 8, generation: GENERATION });
    expect(manifest.segments).toHaveLength(1);
    expect(indexesOf(t)).toEqual([await indexOf(t)]); // the other dimension's generation is dropped
    expect(double.sizeOf(BUCKET, await indexOf(t))).toBe(18);
  });
});

describe('queries of a tiered memory', SLOW, () => {
  it('applies filters as the resident memory does', async () => {
    const [t, r] = await twins('filters', [['tides', 'owls', 'bread', 'glaciers', 'chess', 'trains']]);
    expect((await manifestOf(t)).vectorTier).toBeDefined();
    for (const filter of [{ fileIds: ['owls', 'trains'] }, { fileIds: ['bread'] }]) {
      for (const query of QUERIES) {
        const answer = await search(t, query, { filter });
        expect(answer).toEqual(await search(r, query, { filter }));
        const allowed = new Set(filter.fileIds.flatMap((topic) => TOPICS[topic] ?? []));
        for (const content of answer) expect(allowed.has(content)).toBe(true);
      }
    }
  });

  it("never returns another account's vectors", async () => {
    const a = await newMemory(tiered, 'tenant-a');
    const b = await newMemory(tiered, 'tenant-b');
    await ingest(
      a,
      ['tides', 'owls', 'bread', 'glaciers', 'chess'].map((topic) => [topic, TOPICS[topic] ?? []] as const),
    );
    const secret = Array.from({ length: 14 }, (_, i) => `the midnight train number ${i} carries secret cargo`);
    await ingest(b, [['secret', secret]]);
    expect(await indexOf(a)).not.toBe(await indexOf(b));
    expect(double.sizeOf(BUCKET, await indexOf(b))).toBe(14);
    for (const content of await search(a, 'midnight train secret cargo', { topK: 15 })) expect(secret).not.toContain(content);
    expect(await search(b, 'midnight train secret cargo')).toHaveLength(5);
  });
});

describe('crash safety and lifecycle', SLOW, () => {
  it('a crash mid-batch leaves readers on the published version; the redelivery completes', async () => {
    const [t, r] = await twins('crash', [['tides', 'owls', 'bread', 'glaciers', 'chess']]);
    const before = await manifestOf(t);
    const answers = await Promise.all(QUERIES.map((query) => search(t, query)));
    // 600 chunks: two PutVectors batches; the second fails past the SDK's retries
    const big = Array.from({ length: 600 }, (_, i) => `ledger entry ${i} records the harbour toll of ship ${i % 37}`);
    double.fail('PutVectors', { error: 'InternalServerException', after: 1, times: 1_000 });
    await expect(ingest(t, [['ledger', big]])).rejects.toThrow(/InternalServerException/);
    double.fail('PutVectors', { error: 'InternalServerException', times: 0 });
    expect(await manifestOf(t)).toEqual(before);
    expect(double.sizeOf(BUCKET, await indexOf(t))).toBeGreaterThan(15); // part of the batch is in the store …
    expect(await Promise.all(QUERIES.map((query) => search(t, query)))).toEqual(answers); // … and no reader sees it

    // the message is delivered again: a new build puts everything and collects the crashed one's vectors
    await ingest(t, [['ledger', big]]);
    await ingest(r, [['ledger', big]]);
    const after = await manifestOf(t);
    expect(liveCount(after)).toBe(615);
    expect(double.sizeOf(BUCKET, await indexOf(t))).toBe(615);
    for (const query of [...QUERIES, 'harbour toll of ship 12']) expect(await search(t, query)).toEqual(await search(r, query));
  });

  it('deleting the memory deletes its index', async () => {
    const [t] = await twins('delete', [['tides', 'owls', 'bread', 'glaciers', 'chess']]);
    expect(indexesOf(t)).toHaveLength(1);
    await deleteMemory(tiered, t.accountId, t.memoryId);
    expect(indexesOf(t)).toEqual([]);
  });

  it('a merge whose memory is deleted while it writes deletes what it wrote after the sweep, and its generation', async () => {
    const [t] = await twins('deleted-merge', [
      ['tides', 'owls'],
      ['bread', 'glaciers', 'chess'],
    ]);
    await remove(t, 'owls'); // half the first segment deleted: a merge is due (12 live: still tiered)
    expect((await manifestOf(t)).vectorTier).toBeDefined();
    const store = t.deps.worker.objects;
    let deleted = false;
    const objects = Object.assign(Object.create(store) as typeof store, {
      // the memory is deleted (its objects swept) after the merge read it, before it writes its version
      put: async (...args: Parameters<typeof store.put>) => {
        if (!deleted) await ((deleted = true), deleteMemory(tiered, t.accountId, t.memoryId));
        return store.put(...args);
      },
    });
    const worker = { ...t.deps.worker, objects };
    await mergeMemory(worker, { kind: 'memory.merge', accountId: t.accountId, memoryId: t.memoryId });
    expect(await t.deps.memories.get(t.accountId, t.memoryId)).toBeUndefined();
    expect(await t.deps.objects.list(`gold/${t.accountId}/memories/${t.memoryId}/`)).toEqual([]);
    expect(indexesOf(t)).toEqual([]);
  });

  it("erasing the account drops its memories' indexes, and no other account's", async () => {
    const [t] = await twins('erase', [['tides', 'owls', 'bread', 'glaciers', 'chess']]);
    const [other] = await twins('kept', [['tides', 'owls', 'bread', 'glaciers', 'chess']]);
    expect(indexesOf(t)).toHaveLength(1);
    expect(indexesOf(other)).toHaveLength(1);
    const account = await tiered.accounts.get(t.accountId);
    // the table sweep is the DynamoDB adapter's (test/api/erasure-accounts.test.ts runs it whole): not what this checks
    const tableSweep = { markDeleting: async () => undefined, deleteTenantItems: async () => 0, deleteAccount: async () => undefined };
    await eraseAccount({ ...tiered, accountErasure: tableSweep }, account?.name ?? '', { settleMs: 0, wait: async () => undefined });
    expect(indexesOf(t)).toEqual([]);
    expect(indexesOf(other)).toHaveLength(1);
  });
});
