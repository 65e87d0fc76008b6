/**
 * BM25 over a lexical segment with weighted query terms, scored into a dense array so several fields
 * (chunk text, title) and passes add up in place.
 *
 * Same formula as `lexical/segment.ts` (Lucene idf, k1 + 1 numerator, exact lengths), plus an idf
 * exponent: `idf^p` with p > 1 leans on rare terms (names, identifiers); measured on the dev splits it
 * helps the multi-hop sets and SciFact a little (see bench/quality/README.md).
 */
import { queryTermCounts } from '../lexical/analyzer';
import { bm25Idf, type LexicalSegment, termDocFreq, termPostings } from '../lexical/segment';

/** BM25 parameters of one field. */
export interface FieldParams {
  k1: number;
  b: number;
  /** Exponent applied to idf (1 = classic BM25). */
  idfExponent: number;
}

/** Analyzed query terms with weights (a repeated term counts once per occurrence). */
export type WeightedTerms = ReadonlyMap<string, number>;

/** The last query analyzed by `queryTerms`, and how: a ranking and its supporting facts read the same query. */
let lastQuery: { key: string; terms: ReadonlyMap<string, number> } | undefined;

/**
 * The distinct analyzed terms of `query` for `segment` (its analyzer, each of its languages) with their
 * counts, in first-seen order. The last answer is kept: the ranking's BM25 and the sentence scorer of the
 * same request ask for the same query's terms, and are given the one map (read only).
 */
export function queryTerms(query: string, segment: Pick<LexicalSegment, 'analyzer' | 'languages'>): ReadonlyMap<string, number> {
  const { stem, stopwords, language } = segment.analyzer;
  const key = `${stem}|${stopwords}|${language}|${segment.languages.join(',')}|${query}`;
  if (lastQuery?.key !== key) lastQuery = { key, terms: queryTermCounts(query, segment.analyzer, segment.languages) };
  return lastQuery.terms;
}

/** `bm25Idf(N, df)^p` of an analyzed term in `segment` (0 when absent). */
export function termIdf(segment: LexicalSegment, term: string, exponent = 1): number {
  const docFreq = termDocFreq(segment, term);
  return docFreq === 0 ? 0 : bm25Idf(segment.docIds.length, docFreq) ** exponent;
}

/**
 * The weight of one query term in one field: `scale` × its query count × idf^p × (k1 + 1). A doc's
 * contribution is `weight × tf / (tf + norm)` (`termContribution`); the pruned top-N (lexical-top-n.ts)
 * and the exhaustive scorer below compute both the same way, so their scores are the same bits.
 */
export function bm25TermWeight(docCount: number, docFreq: number, queryCount: number, params: FieldParams, scale: number): number {
  return scale * queryCount * bm25Idf(docCount, docFreq) ** params.idfExponent * (params.k1 + 1);
}

/** One posting's BM25 contribution: `weight` from `bm25TermWeight`, `norm` the doc's from `lengthNorms`. */
export function termContribution(weight: number, freq: number, norm: number): number {
  return (weight * freq) / (freq + norm);
}

const normsBySegment = new WeakMap<LexicalSegment, Map<string, Float64Array>>();

/**
 * Doc ordinal → `k1 × (1 - b + b × length / average length)` of `segment` for `params`, worked out once
 * per segment and (k1, b) and kept (segments are immutable).
 */
export function lengthNorms(segment: LexicalSegment, params: Pick<FieldParams, 'k1' | 'b'>): Float64Array {
  let bySegment = normsBySegment.get(segment);
  if (!bySegment) normsBySegment.set(segment, (bySegment = new Map()));
  const key = `${params.k1} ${params.b}`;
  let norms = bySegment.get(key);
  if (!norms) {
    const { k1, b } = params;
    const average = segment.avgDocLength > 0 ? segment.avgDocLength : 1;
    const lengths = segment.docLengths;
    norms = new Float64Array(segment.docIds.length);
    for (let doc = 0; doc < norms.length; doc++) norms[doc] = k1 * (1 - b + (b * (lengths[doc] ?? 0)) / average);
    bySegment.set(key, norms);
  }
  return norms;
}

/**
 * Adds `scale` × BM25 of `terms` for every doc of `segment` into `scores` (allocated if absent; its
 * length is the segment's doc count). Returns `scores`. Exhaustive: every posting of every term; the
 * reference the pruned top-N (lexical-top-n.ts) is tested against.
 */
export function addBm25Scores(
  segment: LexicalSegment,
  terms: WeightedTerms,
  params: FieldParams,
  scores: Float64Array = new Float64Array(segment.docIds.length),
  scale = 1,
): Float64Array {
  const docCount = segment.docIds.length;
  if (docCount === 0 || scale === 0) return scores;
  const norms = lengthNorms(segment, params);
  for (const [term, weight] of terms) {
    const postings = termPostings(segment, term);
    const count = postings.docs.length;
    if (count === 0 || weight === 0) continue;
    const termWeight = bm25TermWeight(docCount, count, weight, params, scale);
    const { docs, freqs } = postings;
    for (let i = 0; i < count; i++) {
      const doc = docs[i] ?? 0;
      scores[doc] = (scores[doc] ?? 0) + termContribution(termWeight, freqs[i] ?? 0, norms[doc] ?? 0);
    }
  }
  return scores;
}
