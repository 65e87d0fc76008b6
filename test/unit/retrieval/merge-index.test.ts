/**
 * Merging segments: the merged index of some segments, less their deleted chunks, is the index a build
 * from nothing makes of the surviving chunks in the same order (every table, posting and vector byte),
 * and ranks every query the same. A property over random splits and deletions, on the real word vectors.
 */
import { fc } from '../../support/property-seed';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadWordVectorEmbedder } from '../../../functions/adapters/embeddings/word-vector-loader';
import { composeRetrievalIndexes } from '../../../functions/engine/retrieval/compose-index';
import { mergeRetrievalIndexes, searchAnnParts } from '../../../functions/engine/retrieval/merge-index';
import { searchExact } from '../../../functions/engine/retrieval/vector-segment';
import { rankChunks } from '../../../functions/engine/retrieval/rank';
import { buildRetrievalIndex, type RetrievalChunk, type RetrievalIndex } from '../../../functions/engine/retrieval/retrieval-index';
import { serializeRetrievalIndex } from '../../../functions/engine/retrieval/index-format';
import type { WordVectorEmbedder } from '../../../functions/engine/retrieval/word-vector-embedder';

let embedder: WordVectorEmbedder;
beforeAll(() => {
  embedder = loadWordVectorEmbedder();
});

const WORDS = ['tide', 'owl', 'night', 'bread', 'rye', 'glacier', 'valley', 'river', 'stone', 'moon', 'salt', 'wind', 'harbour'];
const TITLES = ['', 'Tides', 'Owls of the north', 'Bread'];

const chunkArbitrary = fc.record({
  words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 12 }),
  title: fc.constantFrom(...TITLES),
  file: fc.integer({ min: 0, max: 5 }),
});

const QUERIES = ['owl night', 'rye bread', 'glacier valley river', 'tides moon', 'salt wind harbour stone'];

function ranking(index: RetrievalIndex, query: string, vector: Float32Array): Array<[string, number]> {
  return rankChunks(index, { query, queryVector: vector, limit: 10 }).map((hit) => [
    index.chunks.ids[hit.ordinal] ?? '',
    Math.round(hit.score * 1e9),
  ]);
}

describe('mergeRetrievalIndexes', () => {
  it('equals a build from nothing of the surviving chunks, and ranks the same', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(chunkArbitrary, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.boolean(), { minLength: 32, maxLength: 32 }),
        async (segments, deletions) => {
          let n = 0;
          const built = segments.map((list, s) =>
            list.map((c): RetrievalChunk => ({ id: `c${s}-${n++}`, fileId: `f${c.file}`, text: c.words.join(' '), title: c.title })),
          );
          const parts = await Promise.all(
            built.map(async (chunks) => ({ chunks, index: await buildRetrievalIndex(chunks, { embedder }) })),
          );
          let k = 0;
          const withDeletes = parts.map(({ chunks, index }) => {
            const deleted = new Set(chunks.flatMap((_, ordinal) => (deletions[k++ % deletions.length] ? [ordinal] : [])));
            return { index, deleted, survivors: chunks.filter((_, ordinal) => !deleted.has(ordinal)) };
          });
          const merged = mergeRetrievalIndexes(withDeletes);
          const fresh = await buildRetrievalIndex(
            withDeletes.flatMap((part) => part.survivors),
            { embedder },
          );
          expect(Buffer.from(serializeRetrievalIndex(merged))).toEqual(Buffer.from(serializeRetrievalIndex(fresh)));
          for (const query of QUERIES) {
            const [vector] = await embedder.embed([query]);
            expect(ranking(merged, query, vector!)).toEqual(ranking(fresh, query, vector!));
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 60_000);

  it('builds an HNSW graph over the merged vectors with acceleration', async () => {
    const chunks = WORDS.map((word, i): RetrievalChunk => ({ id: `c${i}`, fileId: 'f', text: `${word} ${WORDS[(i + 3) % WORDS.length]}` }));
    const a = await buildRetrievalIndex(chunks.slice(0, 6), { embedder });
    const b = await buildRetrievalIndex(chunks.slice(6), { embedder });
    const merged = mergeRetrievalIndexes(
      [
        { index: a, deleted: new Set([1]) },
        { index: b, deleted: new Set() },
      ],
      { acceleration: true },
    );
    const fresh = await buildRetrievalIndex([...chunks.slice(0, 1), ...chunks.slice(2)], { embedder, acceleration: true });
    expect(merged.ann).not.toBeNull();
    expect(Buffer.from(serializeRetrievalIndex(merged))).toEqual(Buffer.from(serializeRetrievalIndex(fresh)));
  });

  it("searches the parts' own HNSW graphs when composing without acceleration, never returning a deleted row", async () => {
    const chunks = WORDS.map((word, i): RetrievalChunk => ({ id: `c${i}`, fileId: 'f', text: `${word} ${WORDS[(i + 5) % WORDS.length]}` }));
    const a = await buildRetrievalIndex(chunks.slice(0, 7), { embedder, acceleration: true });
    const b = await buildRetrievalIndex(chunks.slice(7), { embedder, acceleration: true });
    const composed = composeRetrievalIndexes([
      { index: a, deleted: new Set([2]) },
      { index: b, deleted: new Set() },
    ]);
    expect(composed.ann).toBeNull();
    expect(composed.annParts).toHaveLength(2);
    for (const query of QUERIES) {
      const [vector] = await embedder.embed([query]);
      const exact = searchExact(composed.vectors!, vector!, 5);
      const approximate = searchAnnParts(composed.annParts!, vector!, 5, 80);
      expect(approximate).toEqual(exact); // a graph this small is searched exhaustively
      expect(approximate.map((hit) => composed.chunks.ids[hit.ordinal])).not.toContain('c2');
    }
  });
});
