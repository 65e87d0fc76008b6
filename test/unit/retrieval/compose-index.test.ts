/**
 * Composing segments in place (what a reader does when it sees a new version): over any split of chunks
 * into segments with tombstones, a query over the composed index ranks the chunks as a build from nothing
 * of the live chunks does (same order, scores within 1e-9) in every mode, with no posting merged; the
 * postings it works out when asked are the merged segment's, byte for byte.
 */
import { fc } from '../../support/property-seed';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadWordVectorEmbedder } from '../../../functions/adapters/embeddings/word-vector-loader';
import { composeRetrievalIndexes } from '../../../functions/engine/retrieval/compose-index';
import { serializeSegment, termPostings } from '../../../functions/engine/lexical/segment';
import { mergeRetrievalIndexes } from '../../../functions/engine/retrieval/merge-index';
import { rankChunks, type RetrievalMode } from '../../../functions/engine/retrieval/rank';
import { buildRetrievalIndex, type RetrievalChunk, type RetrievalIndex } from '../../../functions/engine/retrieval/retrieval-index';
import type { WordVectorEmbedder } from '../../../functions/engine/retrieval/word-vector-embedder';

let embedder: WordVectorEmbedder;
beforeAll(() => {
  embedder = loadWordVectorEmbedder();
});

const WORDS = ['tide', 'owl', 'night', 'bread', 'rye', 'glacier', 'valley', 'river', 'stone', 'moon', 'salt', 'wind', 'harbour', 'owls'];
// titles that other chunks mention, so title-link feedback takes part
const TITLES = ['', 'Tides', 'Owl night', 'Bread', 'Glacier valley', 'Moon'];
const QUERIES = ['owl night', 'rye bread', 'glacier valley river', 'tides moon', 'salt wind harbour stone', 'owls'];
const MODES: RetrievalMode[] = ['lexical', 'semantic', 'fused'];

const chunkArbitrary = fc.record({
  words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 12 }),
  title: fc.constantFrom(...TITLES),
  file: fc.integer({ min: 0, max: 5 }),
});

interface Split {
  parts: Array<{ index: RetrievalIndex; deleted: Set<number> }>;
  live: RetrievalChunk[];
}

/** Segments of the chunks, each with the deletions drawn for it, and the live chunks in order. */
async function split(
  segments: ReadonlyArray<ReadonlyArray<typeof chunkArbitrary extends fc.Arbitrary<infer C> ? C : never>>,
  deletions: boolean[],
  acceleration: boolean,
): Promise<Split> {
  let n = 0;
  let k = 0;
  const parts: Split['parts'] = [];
  const live: RetrievalChunk[] = [];
  for (const [s, list] of segments.entries()) {
    const chunks = list.map((c): RetrievalChunk => ({ id: `c${s}-${n++}`, fileId: `f${c.file}`, text: c.words.join(' '), title: c.title }));
    const index = await buildRetrievalIndex(chunks, { embedder, acceleration });
    const deleted = new Set(chunks.flatMap((_, ordinal) => (deletions[k++ % deletions.length] ? [ordinal] : [])));
    parts.push({ index, deleted });
    live.push(...chunks.filter((_, ordinal) => !deleted.has(ordinal)));
  }
  return { parts, live };
}

/**
 * A version before `parts` sharing their first `cut` parts (then one part of other deletions), composed;
 * with `cut` -1, the first segment alone with nothing deleted (a version read as it is); none with 0.
 */
function versionBefore(parts: Split['parts'], cut: number, gatherBelowRows: number) {
  const first = parts[0]!;
  if (cut === -1) return { index: first.index, parts: [{ index: first.index, deleted: new Set<number>() }] };
  if (cut === 0) return undefined;
  const shared = parts.slice(0, cut);
  const next = parts[cut];
  const tail = next ? [{ index: next.index, deleted: new Set(next.deleted.size > 0 ? [] : [0]) }] : [];
  const before = [...shared, ...tail].filter((part) => part.deleted.size < part.index.chunks.ids.length);
  return before.length > 0 ? { index: composeRetrievalIndexes(before, { gatherBelowRows }), parts: before } : undefined;
}

function expectSameRanking(got: Array<{ id: string; score: number }>, want: Array<{ id: string; score: number }>): void {
  expect(got.map((hit) => hit.id)).toEqual(want.map((hit) => hit.id));
  got.forEach((hit, i) => expect(Math.abs(hit.score - (want[i]?.score ?? Number.NaN))).toBeLessThan(1e-9));
}

/** The first terms of a built index's title-link table. */
const firstTerms = (index: RetrievalIndex): string[] => [...(index.links.byFirstTerm as ReadonlyMap<string, unknown>).keys()];

/** The titles starting with `first` and their chunks' ids, order included. */
const titleEntries = (index: RetrievalIndex, first: string) =>
  (index.links.byFirstTerm.get(first) ?? []).map((entry) => ({ terms: entry.terms, chunks: entry.chunks.map((c) => index.chunks.ids[c]) }));

function ranking(
  index: RetrievalIndex,
  query: string,
  vector: Float32Array,
  mode: RetrievalMode,
  allow?: (ordinal: number) => boolean,
): Array<{ id: string; score: number }> {
  return rankChunks(index, { query, queryVector: vector, limit: 10, mode, ...(allow ? { allow } : {}) }).map((hit) => ({
    id: index.chunks.ids[hit.ordinal] ?? '',
    score: hit.score,
  }));
}

describe('composeRetrievalIndexes', () => {
  it('ranks as a build from nothing of the live chunks, over several segments with tombstones', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(chunkArbitrary, { minLength: 1, maxLength: 8 }), { minLength: 2, maxLength: 5 }),
        fc.array(fc.boolean(), { minLength: 7, maxLength: 32 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 9 }),
        fc.array(fc.boolean(), { minLength: 3, maxLength: 11 }),
        fc.integer({ min: -1, max: 5 }),
        async (segments, deletions, acceleration, gatherBelowRows, allowedPattern, cut) => {
          const { parts, live } = await split(segments, deletions, acceleration);
          fc.pre(live.length > 0);
          // segments below `gatherBelowRows` rows share one gathered vector table and one gathered segment per lexical
          // field, the others keep their own kernel and postings; with a version before that shares the first parts,
          // their tables are copied from it (the gathered segments extended from its own)
          const previous = versionBefore(parts, cut, gatherBelowRows);
          const composed = composeRetrievalIndexes(parts, { gatherBelowRows, ...(previous ? { previous } : {}) });
          const fresh = await buildRetrievalIndex(live, { embedder });
          expect(composed.chunks.ids).toEqual(fresh.chunks.ids);
          expect(composed.text.docIds.length).toBe(live.length);
          expect(composed.text.avgDocLength).toBe(fresh.text.avgDocLength);
          expect(composed.text.fileIds).toEqual(fresh.text.fileIds);
          expect([...composed.text.docFiles]).toEqual([...fresh.text.docFiles]);
          expect([...composed.titles.docLengths]).toEqual([...fresh.titles.docLengths]);
          expect(composed.chunks.titles).toEqual(fresh.chunks.titles);
          expect([...composed.chunks.starts]).toEqual([...fresh.chunks.starts]);
          // a term's live postings, read from the large segments and the small ones gathered (segment-gather.ts), are the fresh build's
          for (const term of [...WORDS, 'absent']) {
            expect(termPostings(composed.text, term)).toEqual(termPostings(fresh.text, term));
            expect(termPostings(composed.titles, term)).toEqual(termPostings(fresh.titles, term));
          }
          for (const first of firstTerms(fresh)) expect(titleEntries(composed, first)).toEqual(titleEntries(fresh, first));
          expect(titleEntries(composed, 'absent')).toEqual([]);
          const allow = (ordinal: number) => allowedPattern[ordinal % allowedPattern.length] === true;
          for (const query of QUERIES) {
            const [vector] = await embedder.embed([query]);
            for (const mode of MODES) {
              expectSameRanking(ranking(composed, query, vector!, mode), ranking(fresh, query, vector!, mode));
              expectSameRanking(ranking(composed, query, vector!, mode, allow), ranking(fresh, query, vector!, mode, allow));
            }
          }
          expect(composed.vectors?.values).toEqual(fresh.vectors?.values); // one table of the live rows, when asked
          expect(composed.vectors?.scales).toEqual(fresh.vectors?.scales);
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);

  it('reads postings from the segments, counting live docs only, and merges them only when asked', async () => {
    const chunks = WORDS.map(
      (word, i): RetrievalChunk => ({ id: `c${i}`, fileId: `f${i % 3}`, text: `${word} owl ${WORDS[(i + 4) % WORDS.length]}` }),
    );
    const a = await buildRetrievalIndex(chunks.slice(0, 6), { embedder });
    const b = await buildRetrievalIndex(chunks.slice(6, 10), { embedder });
    const c = await buildRetrievalIndex(chunks.slice(10), { embedder });
    const parts = [
      { index: a, deleted: new Set([0, 3]) },
      { index: b, deleted: new Set<number>() },
      { index: c, deleted: new Set([1]) },
    ];
    const composed = composeRetrievalIndexes(parts);
    const merged = mergeRetrievalIndexes(parts);
    expect(composed.text.parts).toHaveLength(3);
    for (const term of ['owl', 'tide', 'moon', 'harbour', 'absent']) {
      expect(termPostings(composed.text, term)).toEqual(termPostings(merged.text, term));
    }
    expect(termPostings(composed.text, 'owl').docs).toHaveLength(chunks.length - 3); // every live chunk, no deleted one
    expect(Buffer.from(serializeSegment(composed.text))).toEqual(Buffer.from(serializeSegment(merged.text)));
    expect(Buffer.from(serializeSegment(composed.titles))).toEqual(Buffer.from(serializeSegment(merged.titles)));
  });

  it('gathers the small segments postings into one segment a query reads, extended from the version before', async () => {
    const chunks = WORDS.map(
      (word, i): RetrievalChunk => ({ id: `c${i}`, fileId: `f${i % 3}`, text: `${word} owl ${WORDS[(i + 4) % WORDS.length]}` }),
    );
    const small1 = await buildRetrievalIndex(chunks.slice(0, 2), { embedder });
    const large = await buildRetrievalIndex(chunks.slice(2, 8), { embedder });
    const small2 = await buildRetrievalIndex(chunks.slice(8, 11), { embedder });
    const small3 = await buildRetrievalIndex(chunks.slice(11), { embedder });
    // a small segment before the large one: the gathered list's docs lie on both sides of the large one's
    const earlier = [
      { index: small1, deleted: new Set<number>() },
      { index: large, deleted: new Set([1]) },
      { index: small2, deleted: new Set([0]) },
    ];
    const parts = [...earlier, { index: small3, deleted: new Set<number>() }];
    const before = composeRetrievalIndexes(earlier, { gatherBelowRows: 5 });
    const composed = composeRetrievalIndexes(parts, { gatherBelowRows: 5, previous: { index: before, parts: earlier } });
    const merged = mergeRetrievalIndexes(parts);
    expect(before.text.searched).toHaveLength(2); // the large segment, then small1 and small2 gathered
    expect(composed.text.searched).toHaveLength(2);
    expect(composed.text.searched?.[1]?.segment.docIds).toEqual(['c0', 'c1', 'c9', 'c10', 'c11', 'c12', 'c13']);
    for (const term of ['owl', 'tide', 'moon', 'harbour', 'river', 'absent']) {
      expect(termPostings(composed.text, term)).toEqual(termPostings(merged.text, term));
      expect(termPostings(composed.titles, term)).toEqual(termPostings(merged.titles, term));
    }
    const [vector] = await embedder.embed(['owl night']);
    for (const mode of MODES)
      expectSameRanking(ranking(composed, 'owl tide harbour', vector!, mode), ranking(merged, 'owl tide harbour', vector!, mode));
  });

  it('gathers the small segments in groups: a closed group is taken as it is by the next version, the open one extended', async () => {
    const chunks = Array.from(
      { length: 18 },
      (_, i): RetrievalChunk => ({ id: `c${i}`, fileId: `f${i % 4}`, text: `${WORDS[i % WORDS.length]} owl` }),
    );
    const segments = await Promise.all([0, 1, 2, 3, 4, 5].map((s) => buildRetrievalIndex(chunks.slice(3 * s, 3 * s + 3), { embedder })));
    const parts = segments.map((index) => ({ index, deleted: new Set<number>() }));
    // below 4 chunks a segment is small, and a group closes at 8 docs: s0-s2 (9 docs, closed), then s3-s4 (open)
    const before = composeRetrievalIndexes(parts.slice(0, 5), { gatherBelowRows: 4 });
    const composed = composeRetrievalIndexes(parts, { gatherBelowRows: 4, previous: { index: before, parts: parts.slice(0, 5) } });
    expect(before.text.searched?.map((part) => part.segment.docIds.length)).toEqual([9, 6]);
    expect(composed.text.searched?.map((part) => part.segment.docIds.length)).toEqual([9, 9]);
    expect(composed.text.searched?.[0]?.segment).toBe(before.text.searched?.[0]?.segment); // taken as it is
    // a version adding no small segment takes the open group as it is too
    const same = composeRetrievalIndexes(parts.slice(0, 5), { gatherBelowRows: 4, previous: { index: before, parts: parts.slice(0, 5) } });
    expect(same.text.searched?.map((part) => part.segment)).toEqual(before.text.searched?.map((part) => part.segment));
    expect(same.text.searched?.[1]?.segment).toBe(before.text.searched?.[1]?.segment);
    // a version deleting the last small segment's chunks: the open group is cut to the segments left
    const cut = [...parts.slice(0, 4), { index: segments[4]!, deleted: new Set([0, 1, 2]) }];
    const shorter = composeRetrievalIndexes(cut, { gatherBelowRows: 4, previous: { index: before, parts: parts.slice(0, 5) } });
    expect(shorter.text.searched?.map((part) => part.segment.docIds.length)).toEqual([9, 3]);
    for (const term of ['owl', 'tide', 'moon'])
      expect(termPostings(shorter.text, term)).toEqual(termPostings(mergeRetrievalIndexes(cut).text, term));
    // a version before whose closed group holds a part this one deletes from otherwise: the group is made again
    const otherwise = [...parts.slice(0, 2), { index: segments[2]!, deleted: new Set([0]) }];
    const shared = composeRetrievalIndexes(otherwise, { gatherBelowRows: 4 });
    expect(shared.text.searched?.map((part) => part.segment.docIds.length)).toEqual([8]);
    const again = composeRetrievalIndexes(parts, { gatherBelowRows: 4, previous: { index: shared, parts: otherwise } });
    const merged = mergeRetrievalIndexes(parts);
    for (const term of ['owl', 'tide', 'moon', 'harbour', 'absent']) {
      expect(termPostings(composed.text, term)).toEqual(termPostings(merged.text, term));
      expect(termPostings(again.text, term)).toEqual(termPostings(merged.text, term));
    }
  });
});
