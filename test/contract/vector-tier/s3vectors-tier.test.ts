/**
 * The vector tier adapter (functions/adapters/s3vectors/) through the real SDK client against the S3
 * Vectors double: index lifecycle, batched puts, queries with every filter condition (checked against a
 * brute-force answer computed here), deletes, a crash half way through a put and its retry, throttling,
 * and tenant isolation.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TOP_K, VectorTierError, WIDENING_ROUNDS } from '../../../functions/adapters/s3vectors/s3vectors-tier';
import { vectorTierFromSettings } from '../../../functions/adapters/providers/vector-tier-from-settings';
import { dropEveryGeneration } from '../../../functions/core/vector-tier/generations';
import { newGeneration, vectorIndexName } from '../../../functions/core/vector-tier/index-names';
import type { TierVector, VectorAttributes, VectorConditions, VectorIndexRef, VectorTier } from '../../../functions/core/vector-tier/ports';
import { type S3VectorsDouble, startS3VectorsDouble } from '../../../functions/local/s3vectors-double';

const BUCKET = 'kmem-tier-vectors';
const DIM = 8;
let double: S3VectorsDouble;
let tier: VectorTier;

beforeAll(async () => {
  double = await startS3VectorsDouble({ buckets: [BUCKET] });
  const made = vectorTierFromSettings(
    { store: 's3vectors', bucketName: BUCKET, thresholdChunks: 1_000, endpoint: double.endpoint },
    { region: 'us-east-1' },
  );
  if (!made) throw new Error('no tier');
  tier = made;
});

afterAll(() => double.close());

/** A seeded generator (mulberry32): the same data every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FILES = ['file-a', 'file-b', 'file-c', 'file-d'];
const ROLES = ['user', 'assistant'];

function dataset(count: number, seed: number): TierVector[] {
  const next = random(seed);
  return Array.from({ length: count }, (_, i) => {
    const fileId = FILES[i % FILES.length] as string;
    const attributes: VectorAttributes = {
      fileId,
      fileType: i % 3 === 0 ? 'pdf' : 'text',
      sessionId: `session-${i % 5}`,
      userId: `user-${i % 7}`,
      role: ROLES[i % 2],
      sourceKey: `archive:docs/${fileId}/part-${i % 11}.txt`,
      createdAt: 1_700_000_000_000 + i * 1000,
      metadata: { team: i % 4 === 0 ? 'red' : 'blue', 'project.code': `p${i % 6}` },
    };
    return { key: `${fileId}#${i}`, values: Array.from({ length: DIM }, () => next() * 2 - 1), attributes };
  });
}

/** kmem's filter written out plainly here, independently of the adapter. */
function keeps(a: VectorAttributes, c: VectorConditions): boolean {
  const m = c.metadata ?? {};
  return (
    (!c.fileIds || c.fileIds.includes(a.fileId)) &&
    (!c.fileTypes || c.fileTypes.includes(a.fileType ?? '')) &&
    (!c.sessionIds || c.sessionIds.includes(a.sessionId ?? '')) &&
    (!c.userIds || c.userIds.includes(a.userId ?? '')) &&
    (!c.roles || c.roles.includes(a.role ?? '')) &&
    (!c.sourceKeyPrefix || (a.sourceKey ?? '').startsWith(c.sourceKeyPrefix)) &&
    (c.after === undefined || (a.createdAt ?? 0) >= c.after) &&
    (c.before === undefined || (a.createdAt ?? 0) < c.before) &&
    Object.entries(m).every(([k, v]) => (typeof v === 'string' ? a.metadata?.[k] === v : v.includes(a.metadata?.[k] ?? '')))
  );
}

function cosineDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += (a[i] as number) * (b[i] as number);
    na += (a[i] as number) ** 2;
    nb += (b[i] as number) ** 2;
  }
  return 1 - dot / Math.sqrt(na * nb);
}

function expected(vectors: readonly TierVector[], query: number[], topK: number, conditions: VectorConditions = {}): string[] {
  return vectors
    .filter((v) => keeps(v.attributes, conditions))
    .map((v) => ({ key: v.key, d: cosineDistance(query, v.values) }))
    .sort((x, y) => x.d - y.d)
    .slice(0, topK)
    .map((v) => v.key);
}

const memory = (memoryId: string, accountId = 'account-1'): VectorIndexRef => ({ accountId, memoryId });

describe('vector tier on S3 Vectors', () => {
  const ref = memory('memory-filters');
  const vectors = dataset(1_234, 7);
  const query = Array.from({ length: DIM }, (_, i) => (i % 2 ? 0.5 : -0.25));

  // the double's calls that made this suite's index (the suite's other tests, or other suites', may run first)
  const made = { CreateIndex: 0, PutVectors: 0 };

  beforeAll(async () => {
    const before = { ...double.calls };
    await tier.ensureIndex(ref, DIM);
    await tier.put(ref, vectors);
    for (const operation of ['CreateIndex', 'PutVectors'] as const)
      made[operation] = (double.calls[operation] ?? 0) - (before[operation] ?? 0);
  });

  it('creates one index per memory, idempotently, and puts in batches of 500', async () => {
    const created = double.calls.CreateIndex ?? 0;
    await tier.ensureIndex(ref, DIM);
    expect(double.calls.CreateIndex ?? 0).toBe(created);
    expect(double.indexNames(BUCKET)).toContain(vectorIndexName(ref));
    expect(double.sizeOf(BUCKET, vectorIndexName(ref))).toBe(1_234);
    expect(made).toEqual({ CreateIndex: 1, PutVectors: 3 });
    await expect(tier.ensureIndex(ref, DIM + 1)).rejects.toThrow(/holds 8 dimensions, not 9/);
  });

  it('answers the exact nearest neighbours, nearest first, with their attributes', async () => {
    const answer = await tier.query(ref, { vector: query, topK: 10 });
    expect(answer.complete).toBe(true);
    expect(answer.hits.map((h) => h.key)).toEqual(expected(vectors, query, 10));
    const first = vectors.find((v) => v.key === answer.hits[0]?.key);
    expect(answer.hits[0]?.attributes).toEqual({ ...first?.attributes });
    expect(answer.hits[0]?.partial).toBe(false);
    expect(answer.hits[0]?.distance).toBeCloseTo(cosineDistance(query, first?.values ?? []), 5);
  });

  const cases: [string, VectorConditions][] = [
    ['fileIds', { fileIds: ['file-b', 'file-d'] }],
    ['fileTypes', { fileTypes: ['pdf'] }],
    ['sessionIds', { sessionIds: ['session-3'] }],
    ['customerUserIDs', { userIds: ['user-2', 'user-5'] }],
    ['roles', { roles: ['assistant'] }],
    ['after and before', { after: 1_700_000_100_000, before: 1_700_000_400_000 }],
    ['sourceKeyPrefix at a boundary', { sourceKeyPrefix: 'archive:docs/file-c/' }],
    ['sourceKeyPrefix inside a name', { sourceKeyPrefix: 'archive:docs/file-a/part-1' }],
    ['metadata value', { metadata: { team: 'red' } }],
    ['metadata any of, a dotted key', { metadata: { 'project.code': ['p1', 'p4'] } }],
    ['all at once', { fileIds: ['file-a', 'file-c'], roles: ['user'], metadata: { team: 'blue' }, sourceKeyPrefix: 'archive:docs/' }],
  ];

  it.each(cases)('filters by %s and still answers topK', async (_, conditions) => {
    const answer = await tier.query(ref, { vector: query, topK: 20, conditions });
    const want = expected(vectors, query, 20, conditions);
    expect(want.length).toBeGreaterThan(0);
    expect(answer.hits.map((h) => h.key)).toEqual(want);
    expect(answer.complete).toBe(true);
  });

  it('widens past 100 candidates when a post-filter keeps few (full topK, exact)', async () => {
    // ~1 in 44 vectors: only a prefix inside a name can say so, the store sees the whole docs/ prefix
    const conditions = { sourceKeyPrefix: 'archive:docs/file-b/part-10' };
    const want = expected(vectors, query, 25, conditions);
    expect(want).toHaveLength(25);
    const before = double.calls.QueryVectors ?? 0;
    const answer = await tier.query(ref, { vector: query, topK: 25, conditions });
    expect(answer.hits.map((h) => h.key)).toEqual(want);
    expect((double.calls.QueryVectors ?? 0) - before).toBeGreaterThan(1);
  });

  it('says when its widening bound stops before topK, and not when the index ran out', async () => {
    const exhausted = await tier.query(ref, { vector: query, topK: 5, accept: () => false });
    expect(exhausted).toEqual({ hits: [], complete: true });
    const large = memory('memory-widening-bound');
    await tier.ensureIndex(large, DIM);
    await tier.put(large, dataset(WIDENING_ROUNDS * MAX_TOP_K + 100, 9));
    const before = double.calls.QueryVectors ?? 0;
    const bounded = await tier.query(large, { vector: query, topK: 5, accept: () => false });
    expect(bounded).toEqual({ hits: [], complete: false });
    expect((double.calls.QueryVectors ?? 0) - before).toBe(WIDENING_ROUNDS);
  });

  it('finds nothing for an empty list, without asking the store', async () => {
    const before = double.calls.QueryVectors ?? 0;
    expect(await tier.query(ref, { vector: query, topK: 5, conditions: { fileIds: [] } })).toEqual({ hits: [], complete: true });
    expect(double.calls.QueryVectors ?? 0).toBe(before);
    await expect(tier.query(ref, { vector: query, topK: 101 })).rejects.toThrow(/1 to 100/);
  });

  it('keeps what fits of large metadata and post-filters the rest with the caller predicate', async () => {
    const big = memory('memory-big-metadata');
    await tier.ensureIndex(big, DIM);
    const metadata = Object.fromEntries(Array.from({ length: 32 }, (_, i) => [`k${String(i).padStart(2, '0')}`, `${'v'.repeat(200)}${i}`]));
    const many = dataset(60, 11).map((v, i) => ({
      ...v,
      attributes: { ...v.attributes, metadata: { ...metadata, tag: i % 3 === 0 ? 'yes' : 'no' } },
    }));
    await tier.put(big, many);
    const conditions = { metadata: { tag: 'yes' } };
    const accept = (hit: { key: string }) => keeps(many.find((v) => v.key === hit.key)?.attributes ?? { fileId: '' }, conditions);
    const answer = await tier.query(big, { vector: query, topK: 10, conditions, accept });
    expect(answer.hits.map((h) => h.key)).toEqual(expected(many, query, 10, conditions));
    expect(answer.hits.every((h) => h.partial)).toBe(true);
  });

  it('deletes vectors in batches; absent keys and indexes are no error', async () => {
    const del = memory('memory-deletes');
    await tier.ensureIndex(del, DIM);
    const some = dataset(700, 3);
    await tier.put(del, some);
    const gone = some.slice(0, 650).map((v) => v.key);
    await tier.delete(del, [...gone, 'never-stored']);
    expect(double.sizeOf(BUCKET, vectorIndexName(del))).toBe(50);
    const answer = await tier.query(del, { vector: query, topK: 100 });
    expect(answer.hits.map((h) => h.key).sort()).toEqual(
      some
        .slice(650)
        .map((v) => v.key)
        .sort(),
    );
    await tier.delete(memory('memory-never-made'), ['x']);
  });

  it('overwrites a key on a second put, and a zero vector removes it', async () => {
    const over = memory('memory-overwrite');
    await tier.ensureIndex(over, DIM);
    const [first, second] = dataset(2, 5) as [TierVector, TierVector];
    await tier.put(over, [first, second]);
    await tier.put(over, [{ ...first, values: query }]);
    expect((await tier.query(over, { vector: query, topK: 1 })).hits[0]).toMatchObject({ key: first.key, distance: expect.closeTo(0, 5) });
    await tier.put(over, [{ ...second, values: new Array(DIM).fill(0) }]);
    expect(double.sizeOf(BUCKET, vectorIndexName(over))).toBe(1);
  });

  it('drops an index with its vectors, and dropping again is no error', async () => {
    const drop = memory('memory-drop');
    await tier.ensureIndex(drop, DIM);
    await tier.put(drop, dataset(10, 1));
    await tier.dropIndex(drop);
    expect(double.indexNames(BUCKET)).not.toContain(vectorIndexName(drop));
    await tier.dropIndex(drop);
    expect(await tier.query(drop, { vector: query, topK: 3 })).toEqual({ hits: [], complete: true });
  });

  it("lists a memory's generations (and only its own), each its own index", async () => {
    const base = { accountId: 'account-1', memoryId: 'memory-generations' };
    const generations = Array.from({ length: 12 }, (_, i) => newGeneration(i + 1, `${i}`.padStart(8, 'a')));
    await tier.ensureIndex(base, DIM);
    for (const generation of generations) await tier.ensureIndex({ ...base, generation }, DIM);
    await tier.ensureIndex(memory('memory-generations-not'), DIM); // another memory's, left alone
    await tier.put({ ...base, generation: generations[3] }, dataset(5, 4));
    expect(vectorIndexName({ ...base, generation: generations[3] })).toMatch(/^m-[0-9a-f]{40}-v4-[0-9a-f]{8}$/);
    expect(double.sizeOf(BUCKET, vectorIndexName({ ...base, generation: generations[3] }))).toBe(5);
    expect(double.sizeOf(BUCKET, vectorIndexName(base))).toBe(0);
    expect((await tier.generations(base)).sort()).toEqual(['', ...generations].sort());
    await dropEveryGeneration(tier, base);
    expect(await tier.generations(base)).toEqual([]);
    expect(await tier.generations(memory('memory-generations-not'))).toEqual(['']);
  });
});

describe('crash safety', () => {
  const vectors = dataset(1_800, 21);

  // a fault a test injected and did not see through (it failed) must not fail the next one
  afterEach(() => {
    for (const operation of ['PutVectors', 'DeleteVectors'] as const)
      double.fail(operation, { error: 'InternalServerException', times: 0 });
  });

  it('a put that dies half way leaves a part; running it again converges on exactly the vectors', async () => {
    const ref = memory('memory-crash-put');
    await tier.ensureIndex(ref, DIM);
    // the second batch onwards fails past the SDK's retries: the put throws with some batches written
    double.fail('PutVectors', { error: 'InternalServerException', after: 1, times: 1_000 });
    const error = await tier.put(ref, vectors).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VectorTierError);
    expect(error).toMatchObject({ retryable: true, message: expect.stringContaining('InternalServerException') });
    const part = double.sizeOf(BUCKET, vectorIndexName(ref)) ?? 0;
    expect(part).toBeGreaterThan(0);
    expect(part).toBeLessThan(1_800);

    double.fail('PutVectors', { error: 'InternalServerException', times: 0 });
    await tier.put(ref, vectors);
    expect(double.sizeOf(BUCKET, vectorIndexName(ref))).toBe(1_800);
    const query = vectors[42]?.values as number[];
    const answer = await tier.query(ref, { vector: query, topK: 30 });
    expect(answer.hits.map((h) => h.key)).toEqual(expected(vectors, query, 30));
  });

  it('a delete that dies half way is run again to the same end', async () => {
    const ref = memory('memory-crash-delete');
    await tier.ensureIndex(ref, DIM);
    await tier.put(ref, vectors);
    const keys = vectors.slice(0, 1_200).map((v) => v.key);
    double.fail('DeleteVectors', { error: 'ServiceUnavailableException', after: 1, times: 1_000 });
    await expect(tier.delete(ref, keys)).rejects.toMatchObject({ name: 'VectorTierError', retryable: true });
    expect(double.sizeOf(BUCKET, vectorIndexName(ref))).toBeGreaterThan(600);
    double.fail('DeleteVectors', { error: 'ServiceUnavailableException', times: 0 });
    await tier.delete(ref, keys);
    expect(double.sizeOf(BUCKET, vectorIndexName(ref))).toBe(600);
    await tier.put(ref, vectors.slice(0, 1_200));
  });

  it('rides out throttling with the SDK retries', async () => {
    const ref = memory('memory-crash-throttled');
    await tier.ensureIndex(ref, DIM);
    const calls = double.calls.PutVectors ?? 0;
    double.fail('PutVectors', { error: 'TooManyRequestsException', times: 2 });
    await tier.put(ref, vectors.slice(0, 10));
    expect((double.calls.PutVectors ?? 0) - calls).toBe(3);
  });

  it('reports a refused request as not retryable', async () => {
    const ref = memory('memory-crash-refused');
    await tier.ensureIndex(ref, DIM);
    const error = await tier.put(ref, [{ key: 'wrong', values: [1, 2, 3], attributes: { fileId: 'f' } }]).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'VectorTierError', retryable: false, message: expect.stringContaining('ValidationException') });
  });
});

describe('tenant isolation', () => {
  it("derives each account's index from its own id: another account naming the same memory finds nothing", async () => {
    const mine = memory('shared-memory-id', 'account-a');
    const theirs = memory('shared-memory-id', 'account-b');
    expect(vectorIndexName(mine)).not.toBe(vectorIndexName(theirs));
    expect(vectorIndexName(mine)).toMatch(/^m-[0-9a-f]{40}$/);
    expect(vectorIndexName({ accountId: 'account-a', messages: true })).toMatch(/^s-[0-9a-f]{40}$/);
    await tier.ensureIndex(mine, DIM);
    const vectors = dataset(20, 2);
    await tier.put(mine, vectors);
    const query = vectors[0]?.values as number[];
    expect((await tier.query(theirs, { vector: query, topK: 5 })).hits).toEqual([]);
    await tier.dropIndex(theirs);
    await tier.delete(
      theirs,
      vectors.map((v) => v.key),
    );
    expect((await tier.query(mine, { vector: query, topK: 5 })).hits[0]?.key).toBe(vectors[0]?.key);
  });
});
