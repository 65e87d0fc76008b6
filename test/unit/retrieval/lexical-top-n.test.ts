/**
 * The pruned lexical top-N (lexical-top-n.ts) against the exhaustive scorer: the same docs, the same
 * scores to the bit and the same order, and every doc's `scoreOf` equal to its exhaustive score, over
 * random corpora (skewed vocabularies, repeated docs for ties, lists long enough for multi-byte gaps), random queries (repeated terms, absent terms, one term, none), filters, and composed
 * fields of several segments with deleted docs and gathered small segments.
 */
import { fc } from '../../support/property-seed';
import { describe, expect, it } from 'vitest';
import { composeSegments } from '../../../functions/engine/lexical/segment-compose';
import { buildSegment, type LexicalDocument, type LexicalSegment } from '../../../functions/engine/lexical/segment';
import { topKByScore } from '../../../functions/engine/lexical/top-k';
import { addBm25Scores, type FieldParams, queryTerms } from '../../../functions/engine/retrieval/lexical-scorer';
import { lexicalTopN, type ScoredField } from '../../../functions/engine/retrieval/lexical-top-n';

const RAW = { stem: false, stopwords: false, language: 'en' as const };
const VOCABULARY = Array.from({ length: 40 }, (_, i) => `w${i}`);

/** The exhaustive answer: every posting scored, disallowed docs zeroed, `topKByScore`. */
function exhaustive(fields: readonly ScoredField[], terms: ReadonlyMap<string, number>, n: number, allowed?: Uint8Array) {
  const first = fields[0] as ScoredField;
  const scores = new Float64Array(first.segment.docIds.length);
  for (const { segment, params, scale } of fields) addBm25Scores(segment, terms, params, scores, scale);
  if (allowed) for (let doc = 0; doc < scores.length; doc++) if (allowed[doc] !== 1) scores[doc] = 0;
  return { scores, hits: topKByScore(scores, n).map((ordinal) => ({ ordinal, score: scores[ordinal] as number })) };
}

/** Compares the hits, and `scoreOf` of every `step`-th doc. */
function expectSameAsExhaustive(
  fields: readonly ScoredField[],
  terms: ReadonlyMap<string, number>,
  n: number,
  allowed?: Uint8Array,
  step = 1,
): void {
  const expected = exhaustive(fields, terms, n, allowed);
  const pruned = lexicalTopN(fields, terms, n, allowed);
  expect(pruned.hits).toEqual(expected.hits);
  for (let doc = 0; doc < expected.scores.length; doc += step) expect(Object.is(pruned.scoreOf(doc), expected.scores[doc])).toBe(true);
}

/** A doc's words: skewed towards the first words of the vocabulary (a few very common terms, a long tail). */
const docWords = fc
  .array(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), { minLength: 0, maxLength: 14 })
  .map((draws) => draws.map((r) => VOCABULARY[Math.floor(VOCABULARY.length * r ** 3)] as string).join(' '));

/** Docs, some repeated from a small pool (equal scores, so ties are common). */
const corpus = fc
  .tuple(fc.array(docWords, { minLength: 1, maxLength: 8 }), fc.array(fc.nat(), { minLength: 1, maxLength: 300 }))
  .map(([pool, picks]) =>
    picks.map((pick, i) => (pick % 3 === 0 ? (pool[pick % pool.length] as string) : `${pool[pick % pool.length]} w${(pick + i) % 40}`)),
  );

const fieldParams = fc.record({
  k1: fc.constantFrom(0.9, 1.2, 0.4),
  b: fc.constantFrom(0.3, 0.75, 0, 1),
  idfExponent: fc.constantFrom(1, 1.5, 2),
});

/** Query terms with counts: vocabulary words (repeated ones count more) and absent ones. */
const queryCounts = fc
  .array(fc.oneof(fc.constantFrom(...VOCABULARY), fc.constant('absent')), { minLength: 0, maxLength: 12 })
  .map((words) => {
    const counts = new Map<string, number>();
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    return counts;
  });

interface Layout {
  /** Docs per segment, in order (they cover the corpus). */
  cuts: number[];
  deleted: boolean[];
  gatherBelow?: number;
}

/** The text and title fields of `texts` as composed segments of `layout` (or plain when one part, none deleted). */
function fields(texts: readonly string[], layout: Layout, text: FieldParams, title: FieldParams, titleWeight: number): ScoredField[] {
  const docs: LexicalDocument[] = texts.map((t, i) => ({ id: `d${i}`, fileId: `f${i % 5}`, text: t }));
  const titles: LexicalDocument[] = docs.map((doc, i) => ({ ...doc, text: `w${i % 7} title${i % 3}` }));
  const plain = layout.cuts.length === 1 && !layout.deleted.some(Boolean);
  const build = (all: LexicalDocument[], same?: LexicalSegment): LexicalSegment => {
    if (plain) return buildSegment(all, RAW);
    let start = 0;
    let next = 0;
    const parts = layout.cuts.map((size) => {
      const slice = all.slice(start, start + size);
      const ordinals = Int32Array.from(slice, (_, i) => (layout.deleted[start + i] ? -1 : next++));
      start += size;
      return { segment: buildSegment(slice, RAW), ordinals };
    });
    return composeSegments(parts, next, same, undefined, layout.gatherBelow);
  };
  const textSegment = build(docs);
  return [
    { segment: textSegment, params: text, scale: 1 },
    { segment: build(titles, textSegment), params: title, scale: titleWeight },
  ];
}

/** Cuts of `count` docs into 1..6 segments (sizes from the draws), some docs deleted, small ones maybe gathered. */
function layoutOf(count: number, draws: { sizes: number[]; deletions: number[]; gatherBelow: number | null }): Layout {
  const cuts: number[] = [];
  let left = count;
  for (const size of draws.sizes) {
    if (left === 0) break;
    const cut = Math.min(left, 1 + (size % Math.max(1, Math.ceil(count / 2))));
    cuts.push(cut);
    left -= cut;
  }
  if (left > 0) cuts.push(left);
  const deleted = Array.from({ length: count }, (_, i) => draws.deletions.includes(i % 17));
  return { cuts, deleted, ...(draws.gatherBelow === null ? {} : { gatherBelow: draws.gatherBelow }) };
}

const layoutDraws = fc.record({
  sizes: fc.array(fc.nat({ max: 200 }), { minLength: 0, maxLength: 5 }),
  deletions: fc.array(fc.nat({ max: 16 }), { maxLength: 3 }),
  gatherBelow: fc.option(fc.constantFrom(4, 16, 64), { nil: null }),
});

describe('lexicalTopN (pruned) against the exhaustive scorer', () => {
  it('gives the same top n, scores and order, and the same score of every doc, on random corpora and queries', () => {
    fc.assert(
      fc.property(
        corpus,
        layoutDraws,
        fc.array(queryCounts, { minLength: 1, maxLength: 4 }),
        fc.record({
          text: fieldParams,
          title: fieldParams,
          titleWeight: fc.constantFrom(0.15, 0, 1),
          n: fc.constantFrom(1, 2, 3, 5, 10, 30),
        }),
        fc.option(fc.array(fc.boolean(), { minLength: 1, maxLength: 9 }), { nil: null }),
        (texts, draws, queries, { text, title, titleWeight, n }, filter) => {
          const scored = fields(texts, layoutOf(texts.length, draws), text, title, titleWeight);
          const count = scored[0]?.segment.docIds.length ?? 0;
          const allowed = filter ? Uint8Array.from({ length: count }, (_, doc) => (filter[doc % filter.length] ? 1 : 0)) : undefined;
          // several queries on the same fields: the reused buffers must come back clean
          for (const terms of queries) expectSameAsExhaustive(scored, terms, n, allowed);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('prunes exactly on a corpus with long lists (multi-byte gaps and frequencies, lists looked up and read through)', () => {
    const texts = Array.from({ length: 3000 }, (_, i) => {
      const words = [`w${i % 3}`, `w${3 + (i % 11)}`, `w${14 + (i % 97 === 0 ? 1 : 2)}`];
      if (i % 401 === 0) words.push(...Array.from({ length: 150 }, () => 'w20'));
      if (i % 7 === 0) words.push('w21', 'w21');
      return words.join(' ');
    });
    const params = { k1: 0.9, b: 0.3, idfExponent: 1.5 };
    for (const layout of [
      { cuts: [3000], deleted: [] },
      { cuts: [1200, 1000, 40, 30, 730], deleted: texts.map((_, i) => i % 13 === 0), gatherBelow: 64 },
    ]) {
      const scored = fields(texts, layout, params, { k1: 1.2, b: 0.75, idfExponent: 1.5 }, 0.15);
      for (const query of [['w0', 'w15', 'w20'], ['w21'], ['w1', 'w1', 'w5', 'w15', 'w21', 'absent'], ['w15']]) {
        const terms = new Map<string, number>();
        for (const word of query) terms.set(word, (terms.get(word) ?? 0) + 1);
        for (const n of [1, 10, 100]) expectSameAsExhaustive(scored, terms, n, undefined, 7);
      }
    }
  });

  it('finds nothing for a query of stopwords only, and nothing when n is 0', () => {
    const segment = buildSegment([{ id: 'a', fileId: 'f', text: 'the cell divides' }]);
    const scored = [{ segment, params: { k1: 0.9, b: 0.4, idfExponent: 1 }, scale: 1 }];
    const stopwords = queryTerms('the of and', segment);
    expect(stopwords.size).toBe(0);
    expect(lexicalTopN(scored, stopwords, 10).hits).toEqual([]);
    expect(lexicalTopN(scored, queryTerms('cell', segment), 0).hits).toEqual([]);
    expect(lexicalTopN(scored, queryTerms('cell', segment), 10).hits.map((hit) => hit.ordinal)).toEqual([0]);
  });
});
