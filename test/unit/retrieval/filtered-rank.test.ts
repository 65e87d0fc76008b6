/**
 * Filtered ranking is exact and full: with an `allow` predicate keeping 1% of the chunks, every list
 * (lexical, semantic by exact scan or by HNSW, an external graph-like list) ranks the allowed chunks
 * alone before it is cut, so `limit` hits come back, in the order they rank among the allowed chunks;
 * with 10% allowed, that order is the unfiltered ranking's restricted to them, and with fewer allowed
 * than `limit`, every allowed chunk comes back.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadWordVectorEmbedder } from '../../../functions/adapters/embeddings/word-vector-loader';
import { allowedSet } from '../../../functions/engine/retrieval/allowed-search';
import { rankChunks } from '../../../functions/engine/retrieval/rank';
import { buildRetrievalIndex, type RetrievalChunk, type RetrievalIndex } from '../../../functions/engine/retrieval/retrieval-index';
import { rowScore } from '../../../functions/engine/retrieval/vector-segment';
import type { WordVectorEmbedder } from '../../../functions/engine/retrieval/word-vector-embedder';

const TOPICS = [
  'hedgehogs hibernate in winter under leaves and eat beetles',
  'volcanoes erupt lava and ash that disrupt air travel',
  'bakers knead dough and bake bread in hot ovens',
  'ships shelter in the harbour behind the breakwater',
  'astronauts landed on the moon with the apollo program',
];
const CHUNKS = 1000;

function chunks(): RetrievalChunk[] {
  return Array.from({ length: CHUNKS }, (_, i) => ({
    id: `c${i}`,
    fileId: `f${i % 100}`,
    text: `${TOPICS[i % TOPICS.length]} (note ${i}, variant ${(i * 7) % 13})`,
    title: `note ${i}`,
    start: 0,
    end: 10,
  }));
}

let embedder: WordVectorEmbedder;
const indexes: Record<'exact' | 'hnsw', RetrievalIndex | undefined> = { exact: undefined, hnsw: undefined };

beforeAll(async () => {
  embedder = loadWordVectorEmbedder();
  indexes.exact = await buildRetrievalIndex(chunks(), { embedder, acceleration: false });
  indexes.hnsw = await buildRetrievalIndex(chunks(), { embedder, acceleration: true });
}, 120_000);

// 1%: ten chunks of file f7 (ordinals 7, 107, ...), none of them about hedgehogs' topic first
const allowed = new Set(Array.from({ length: 10 }, (_, i) => 7 + 100 * i));
const allow = (ordinal: number): boolean => allowed.has(ordinal);
const query = 'where do hedgehogs sleep in winter';

describe('filtered ranking', () => {
  for (const kind of ['exact', 'hnsw'] as const) {
    it(`fills the semantic list from the allowed chunks alone, in exact order (${kind})`, async () => {
      const index = indexes[kind];
      if (!index?.vectors) throw new Error('no vectors');
      expect(index.ann !== null).toBe(kind === 'hnsw');
      const [queryVector] = await embedder.embed([query]);
      const hits = rankChunks(index, { query, queryVector, limit: 5, mode: 'semantic', allow });
      expect(hits).toHaveLength(5);
      for (const hit of hits) expect(allowed.has(hit.ordinal)).toBe(true);
      const vectors = index.vectors;
      const expected = [...allowed]
        .map((ordinal) => ({ ordinal, score: rowScore(vectors, ordinal, queryVector ?? new Float32Array()) }))
        .sort((a, b) => b.score - a.score || a.ordinal - b.ordinal)
        .slice(0, 5)
        .map((hit) => hit.ordinal);
      expect(hits.map((hit) => hit.ordinal)).toEqual(expected);
    });
  }

  it('fills the lexical and fused lists from the allowed chunks alone', async () => {
    const index = indexes.exact;
    if (!index) throw new Error('no index');
    // every chunk has the words, the allowed ones are about another topic: they would not make an unfiltered cut
    const words = 'hedgehogs beetles note variant';
    const [queryVector] = await embedder.embed([words]);
    for (const mode of ['lexical', 'fused'] as const) {
      const hits = rankChunks(index, { query: words, queryVector, limit: 8, mode, allow });
      expect(hits).toHaveLength(8);
      for (const hit of hits) expect(allowed.has(hit.ordinal)).toBe(true);
    }
  });

  it('keeps allowed hits of an external list that rank past its cut', () => {
    const index = indexes.exact;
    if (!index) throw new Error('no index');
    // a graph-like list scoring every chunk, the allowed ones last: cutting before filtering would keep none
    const hits = Array.from({ length: CHUNKS }, (_, i) => ({ chunkId: `c${i}`, score: allowed.has(i) ? 1 : 2 + i }));
    const fused = rankChunks(index, { query: 'zzzz qqqq', limit: 10, mode: 'fused', external: [{ name: 'graph', hits }], allow });
    expect(fused.map((hit) => hit.ordinal).sort((a, b) => a - b)).toEqual([...allowed].sort((a, b) => a - b));
  });

  // 10%: the chunks of ten files (f0-f9), ordinals in runs 0-9, 100-109, ...
  const tenth = (ordinal: number): boolean => ordinal % 100 < 10;
  const noLinks = { links: { weight: 0 } };

  it('with a filter keeping 10%, ranks as the unfiltered ranking restricted to the matches (lexical, semantic)', async () => {
    const exact = indexes.exact;
    if (!exact) throw new Error('no index');
    for (const words of [query, 'volcanoes ash bread ovens', 'note variant 7']) {
      const [queryVector] = await embedder.embed([words]);
      for (const mode of ['lexical', 'semantic'] as const) {
        // the whole unfiltered ranking (every chunk a candidate), then the matches in its order
        const everything = rankChunks(exact, {
          query: words,
          queryVector,
          limit: CHUNKS,
          mode,
          params: { candidates: CHUNKS, ...noLinks },
        });
        const expected = everything.filter((hit) => tenth(hit.ordinal)).slice(0, 10);
        expect(expected).toHaveLength(10);
        for (const kind of ['exact', 'hnsw'] as const) {
          const index = indexes[kind];
          if (!index) throw new Error('no index');
          const hits = rankChunks(index, { query: words, queryVector, limit: 10, mode, params: noLinks, allow: tenth });
          expect(
            hits.map((hit) => hit.ordinal),
            `${mode}, ${kind}: ${words}`,
          ).toEqual(expected.map((hit) => hit.ordinal));
          if (mode === 'semantic') expect(hits.map((hit) => hit.score)).toEqual(expected.map((hit) => hit.score));
        }
      }
    }
  });

  it('answers every match when a filter keeps fewer than the limit', async () => {
    const few = new Set([7, 456, 901]);
    const [queryVector] = await embedder.embed([query]);
    for (const kind of ['exact', 'hnsw'] as const) {
      const index = indexes[kind];
      if (!index) throw new Error('no index');
      for (const mode of ['semantic', 'fused'] as const) {
        const hits = rankChunks(index, { query, queryVector, limit: 10, mode, allow: (ordinal) => few.has(ordinal) });
        expect(
          hits.map((hit) => hit.ordinal).sort((a, b) => a - b),
          `${mode}, ${kind}`,
        ).toEqual([...few]);
      }
    }
  });

  it('ranks the same with the allowed set worked out ahead as with the check', async () => {
    const index = indexes.exact;
    if (!index) throw new Error('no index');
    const [queryVector] = await embedder.embed([query]);
    const ahead = allowedSet(CHUNKS, tenth);
    expect(ahead.count).toBe(100);
    expect(Array.from(ahead.ordinals.slice(0, 12))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 100, 101]);
    for (const mode of ['lexical', 'semantic', 'fused'] as const) {
      const withCheck = rankChunks(index, { query, queryVector, limit: 20, mode, allow: tenth });
      expect(rankChunks(index, { query, queryVector, limit: 20, mode, allowed: ahead })).toEqual(withCheck);
    }
  });

  it('answers nothing when nothing is allowed', async () => {
    const index = indexes.hnsw;
    if (!index) throw new Error('no index');
    const [queryVector] = await embedder.embed([query]);
    expect(rankChunks(index, { query, queryVector, limit: 5, allow: () => false })).toEqual([]);
  });
});
