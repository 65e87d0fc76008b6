import { describe, expect, it } from 'vitest';
import { topKByScore } from '../../../functions/engine/lexical/top-k';

/** The reference: every positive score, sorted by score descending then ordinal ascending, cut to k. */
function sortedTopK(scores: Float64Array, k: number): number[] {
  return [...scores.keys()]
    .filter((doc) => (scores[doc] ?? 0) > 0)
    .sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b)
    .slice(0, Math.max(0, k));
}

/** A deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('topKByScore', () => {
  it('answers the k best positive scores, ties to the lower ordinal, as a full sort does', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const next = random(seed);
      const size = Math.floor(next() * 400);
      // few distinct values, so ties are common; some zero and negative scores, which never come back
      const scores = Float64Array.from({ length: size }, () => Math.floor(next() * 12) - 3);
      const k = Math.floor(next() * 40);
      expect(topKByScore(scores, k), `seed ${seed}`).toEqual(sortedTopK(scores, k));
    }
  });

  it('answers nothing for k below 1 or no positive score', () => {
    expect(topKByScore(Float64Array.from([3, 2, 1]), 0)).toEqual([]);
    expect(topKByScore(Float64Array.from([0, -1, 0]), 5)).toEqual([]);
  });

  it('keeps the earliest of equal scores when they overflow k', () => {
    expect(topKByScore(Float64Array.from([1, 2, 2, 2, 1, 2]), 2)).toEqual([1, 2]);
  });
});
