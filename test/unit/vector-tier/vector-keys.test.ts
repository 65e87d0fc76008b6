/**
 * The keys of a tiered memory's vectors: which a manifest holds live and at which ordinal of the composed
 * index (the live chunks of every segment, in manifest order), and which a publish leaves out.
 */
import { describe, expect, it } from 'vitest';
import type { IndexManifest } from '../../../functions/core/stored-index/manifest';
import { storeConditions } from '../../../functions/core/vector-tier/candidates';
import { keysLeftOut, keysOfRanges, LiveKeys, vectorKey } from '../../../functions/core/vector-tier/vector-keys';

const entry = (id: string, chunks: number, deleted: number[] = []) => ({ id, chunks, deleted, embedder: 'e' });

describe('live keys', () => {
  const manifest: IndexManifest = { format: 1, segments: [entry('s1-a', 5, [1, 3]), entry('s2-b', 3), entry('s3-c', 4, [0])] };
  const live = new LiveKeys(manifest);

  it('maps a live key to its ordinal of the composed index', () => {
    const ordinals = manifest.segments.flatMap((segment) =>
      Array.from({ length: segment.chunks }, (_, ordinal) => live.ordinalOf(vectorKey(segment.id, ordinal))),
    );
    expect(ordinals).toEqual([0, undefined, 1, undefined, 2, 3, 4, 5, undefined, 6, 7, 8]);
  });

  it('holds no key of a deleted chunk, an unknown segment, or past a segment end', () => {
    for (const key of ['s1-a#1', 's9-z#0', 's2-b#3', 's2-b#-1', 's2-b#x', 'nonsense', '#0']) expect(live.ordinalOf(key)).toBeUndefined();
  });

  it('names the keys a publish tombstoned or dropped', () => {
    const next: IndexManifest = { format: 1, segments: [entry('s1-a', 5, [1, 2, 3]), entry('s4-d', 7)] };
    expect(keysLeftOut(manifest, next).sort()).toEqual(['s1-a#2', 's2-b#0', 's2-b#1', 's2-b#2', 's3-c#1', 's3-c#2', 's3-c#3'].sort());
  });

  it("names a segment file table's ordinals", () => {
    expect(
      keysOfRanges('s5-e', [
        [0, 2, 5, 6],
        [2, 4],
      ]),
    ).toEqual(['s5-e#0', 's5-e#1', 's5-e#5', 's5-e#2', 's5-e#3']);
  });
});

describe('store conditions', () => {
  it('asks the store what it answers exactly, and leaves the rest to the local predicate', () => {
    expect(storeConditions(undefined, undefined)).toBeUndefined();
    expect(storeConditions({ fileIds: ['a'] }, undefined)).toBeUndefined(); // a crawl's pages match too: checked locally
    expect(storeConditions({ sessionIds: ['s'], roles: ['user'], customerUserIds: ['u'] }, new Set(['f1']))).toEqual({
      sessionIds: ['s'],
      roles: ['user'],
      userIds: ['u'],
      fileIds: ['f1'],
    });
    const many = new Set(Array.from({ length: 101 }, (_, i) => `f${i}`));
    expect(storeConditions({ fileTypes: ['document'] }, many)).toBeUndefined();
  });
});
