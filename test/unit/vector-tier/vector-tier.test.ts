/**
 * The vector tier's pure parts: when a memory moves (and back), kmem's conditions over a vector's
 * attributes, the metadata a vector carries within S3 Vectors' limits, and the store filter's exactness.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, functionConfig, loadConfig } from '../../../functions/config';
import { attributesOf, FILTERABLE_BYTES, sourcePrefixes, storedMetadataOf } from '../../../functions/adapters/s3vectors/stored-metadata';
import { boundaryPrefix, excluding, storeFilterOf } from '../../../functions/adapters/s3vectors/store-filter';
import { matchesConditions } from '../../../functions/core/vector-tier/conditions';
import { placementFor } from '../../../functions/core/vector-tier/placement';
import type { VectorAttributes } from '../../../functions/core/vector-tier/ports';

describe('placement', () => {
  it('moves past the threshold and back below 80% of it, not in between', () => {
    expect(placementFor(1_000, 'resident', 1_000)).toBe('resident');
    expect(placementFor(1_001, 'resident', 1_000)).toBe('tier');
    expect(placementFor(900, 'tier', 1_000)).toBe('tier');
    expect(placementFor(800, 'tier', 1_000)).toBe('tier');
    expect(placementFor(799, 'tier', 1_000)).toBe('resident');
  });
});

const attributes: VectorAttributes = {
  fileId: 'f1',
  fileType: 'pdf',
  sessionId: 's1',
  userId: 'u1',
  role: 'user',
  sourceKey: 's3://bucket/docs/a.txt',
  createdAt: 1_000,
  metadata: { team: 'red', 'a.b': 'x' },
};

describe('conditions', () => {
  it('holds when every condition holds; a missing attribute fails its condition', () => {
    expect(matchesConditions(attributes, {})).toBe(true);
    expect(matchesConditions(attributes, { fileIds: ['f1'], roles: ['user', 'assistant'], metadata: { team: ['red'], 'a.b': 'x' } })).toBe(
      true,
    );
    expect(matchesConditions(attributes, { sourceKeyPrefix: 's3://bucket/do', after: 1_000, before: 1_001 })).toBe(true);
    expect(matchesConditions(attributes, { before: 1_000 })).toBe(false);
    expect(matchesConditions(attributes, { metadata: { team: 'blue' } })).toBe(false);
    expect(matchesConditions({ fileId: 'f1' }, { roles: ['user'] })).toBe(false);
    expect(matchesConditions({ fileId: 'f1' }, { after: 0 })).toBe(false);
  });
});

describe('stored metadata', () => {
  it('round-trips the attributes under short names, dotted keys included', () => {
    const stored = storedMetadataOf('f1#0', attributes);
    expect(stored).toMatchObject({ k: 'f1#0', f: 'f1', t: 'pdf', s: 's1', u: 'u1', r: 'user', c: 1_000, 'm_a~b': 'x', m_team: 'red' });
    expect(stored.p).toEqual(['s3:', 's3:/', 's3://', 's3://bucket/', 's3://bucket/docs/', 's3://bucket/docs/a.txt']);
    expect(attributesOf(stored)).toEqual({ attributes, partial: false });
  });

  it('keeps within the filterable bytes, flagging what it left out', () => {
    const metadata = Object.fromEntries(Array.from({ length: 32 }, (_, i) => [`key${i}`, 'v'.repeat(250)]));
    const sourceKey = `archive:${'dir/'.repeat(200)}file.txt`;
    const stored = storedMetadataOf('k', { fileId: 'f', sourceKey, metadata });
    expect(Buffer.byteLength(JSON.stringify(stored))).toBeLessThanOrEqual(FILTERABLE_BYTES);
    expect(stored).toMatchObject({ xp: true, xm: true });
    const { attributes: back, partial } = attributesOf(stored);
    expect(partial).toBe(true);
    expect(back.sourceKey).toBeUndefined();
    expect(Object.keys(back.metadata ?? {}).length).toBeLessThan(32);
    expect(sourcePrefixes('a/b')).toEqual(['a/', 'a/b']);
  });

  it('refuses a vector whose ids alone exceed the limit', () => {
    expect(() => storedMetadataOf('k', { fileId: 'x'.repeat(3_000) })).toThrow(/filterable metadata/);
  });
});

describe('store filter', () => {
  it('is exact for ids, roles and time; wider (post-filtered) for prefixes and metadata', () => {
    expect(storeFilterOf({})).toEqual({ exact: true });
    expect(storeFilterOf({ fileIds: ['a'] })).toEqual({ filter: { f: { $in: ['a'] } }, exact: true });
    expect(storeFilterOf({ roles: ['user'], after: 5, before: 9 })).toEqual({
      filter: { $and: [{ r: { $in: ['user'] } }, { c: { $gte: 5 } }, { c: { $lt: 9 } }] },
      exact: true,
    });
    expect(storeFilterOf({ sourceKeyPrefix: 'archive:docs/a' })).toEqual({
      filter: { $or: [{ p: { $eq: 'archive:docs/' } }, { p: { $eq: 'archive:docs/a' } }, { xp: { $eq: true } }] },
      exact: false,
    });
    expect(storeFilterOf({ sourceKeyPrefix: 'arch' })).toEqual({ exact: false });
    expect(storeFilterOf({ metadata: { 'a.b': 'x' } })).toEqual({
      filter: { $or: [{ 'm_a~b': { $in: ['x'] } }, { xm: { $eq: true } }] },
      exact: false,
    });
    expect(boundaryPrefix('s3://b/k')).toBe('s3://b/');
    expect(excluding(undefined, ['k1'])).toEqual({ k: { $nin: ['k1'] } });
    expect(excluding({ f: 'a' }, [])).toEqual({ f: 'a' });
  });
});

describe('settings', () => {
  it('reads the tier from the environment, and refuses s3vectors without its bucket, naming the variable', () => {
    expect(loadConfig({}).vectorTier).toEqual({ store: 'resident' });
    expect(loadConfig({ KMEM_VECTOR_STORE: 's3vectors', KMEM_VECTOR_BUCKET_NAME: 'kmem-vectors' }).vectorTier).toEqual({
      store: 's3vectors',
      bucketName: 'kmem-vectors',
      thresholdChunks: 250_000,
      endpoint: undefined,
    });
    expect(() => loadConfig({ KMEM_VECTOR_STORE: 's3vectors' })).toThrow(ConfigError);
    expect(() => loadConfig({ KMEM_VECTOR_STORE: 's3vectors' })).toThrow(/KMEM_VECTOR_BUCKET_NAME/);
    expect(() => loadConfig({ KMEM_VECTOR_BUCKET_NAME: 'Not_A_Bucket' })).toThrow(/KMEM_VECTOR_BUCKET_NAME/);
    const retrieval = functionConfig('retrieval', {
      KMEM_VECTOR_STORE: 's3vectors',
      KMEM_VECTOR_BUCKET_NAME: 'kmem-vectors',
      KMEM_VECTOR_TIER_THRESHOLD_CHUNKS: '9',
    });
    expect(retrieval.vectorTier).toMatchObject({ store: 's3vectors', thresholdChunks: 9 });
  });
});
