/**
 * The seam of where the semantic candidates come from (`VectorSource`, rank.ts): an index without vectors
 * of its own (a tiered memory's) ranks the candidates a source gives, by their scores, fused with the
 * lexical side as the index's own vectors would be; the source is asked once per query vector and depth,
 * and not at all in lexical mode.
 */
import { describe, expect, it } from 'vitest';
import type { Embedder } from '../../../functions/engine/retrieval/embedder';
import { rankChunks } from '../../../functions/engine/retrieval/rank';
import { rankForQuery } from '../../../functions/engine/retrieval/retrieve';
import { buildRetrievalIndex, chunkVector, type RetrievalIndex } from '../../../functions/engine/retrieval/retrieval-index';

const TEXTS = ['red apples grow on trees', 'the river runs to the sea', 'green apples are sour', 'boats sail on the sea'];

/** A tiny embedder: one dimension per word of a fixed vocabulary, normalised. */
const VOCABULARY = ['apples', 'river', 'sea', 'boats', 'trees', 'sour'];
const embedder: Embedder = {
  name: 'words-6',
  dimensions: VOCABULARY.length,
  embed: async (texts) =>
    texts.map((text) => {
      const vector = Float32Array.from(VOCABULARY, (word) => (text.includes(word) ? 1 : 0.01));
      const norm = Math.hypot(...vector);
      return vector.map((value) => value / norm);
    }),
};

async function indexes(): Promise<{ resident: RetrievalIndex; tiered: RetrievalIndex }> {
  const chunks = TEXTS.map((text, i) => ({ id: `c${i}`, fileId: `f${i}`, text, start: 0, end: text.length }));
  const resident = await buildRetrievalIndex(chunks, { embedder });
  return { resident, tiered: { ...resident, vectors: null, ann: null } };
}

describe('a vector source', () => {
  it('gives the semantic list of an index without vectors, ranked as the resident one', async () => {
    const { resident, tiered } = await indexes();
    const asked: number[] = [];
    const vectorSource = async (query: Float32Array, k: number) => {
      asked.push(k);
      // exact cosine over the resident rows, as the store would answer (all of them: 4 < k)
      return TEXTS.map((_, ordinal) => {
        const row = chunkVector(resident, ordinal) ?? new Float32Array();
        return { ordinal, score: row.reduce((sum, value, d) => sum + value * (query[d] ?? 0), 0) };
      }).sort((a, b) => b.score - a.score);
    };
    for (const query of ['sea boats', 'sour apples', 'river']) {
      const own = await rankForQuery(resident, { query, limit: 4 }, { embedder });
      const sourced = await rankForQuery(tiered, { query, limit: 4 }, { embedder, vectorSource });
      expect(sourced.hits.map((hit) => hit.ordinal)).toEqual(own.hits.map((hit) => hit.ordinal));
      expect(sourced.queryVector).not.toBeNull();
    }
    expect(asked).toEqual([100, 100, 100]);
    await rankForQuery(tiered, { query: 'sea', limit: 4, mode: 'lexical' }, { embedder, vectorSource });
    expect(asked).toHaveLength(3);
  });

  it('leaves the semantic side empty without a source when the index holds no vectors', async () => {
    const { tiered } = await indexes();
    const ranked = await rankForQuery(tiered, { query: 'sea boats', limit: 4 }, { embedder });
    expect(ranked.queryVector).toBeNull();
    const hits = rankChunks(tiered, { query: 'sea boats', limit: 4, vectorHits: [{ ordinal: 0, score: 0.9 }] });
    expect(hits.map((hit) => hit.ordinal)).toContain(0); // a sourced hit ranks though no word of the query is in it
  });
});
