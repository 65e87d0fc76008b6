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

/** The distinct analyzed terms of `query` for `segment` (its analyzer, each of its languages) with their counts, in first-seen order. */
export function queryTerms(query: string, segment: Pick<LexicalSegment, 'analyzer' | 'languages'>): Map<string, number> {
  return queryTermCounts(query, segment.analyzer, segment.languages);
}

/** `bm25Idf(N, df)^p` of an analyzed term in `segment` (0 when absent). */
export function termIdf(segment: LexicalSegment, term: string, exponent = 1): number {
  const docFreq = termDocFreq(segment, term);
  return docFreq === 0 ? 0 : bm25Idf(segment.docIds.length, docFreq) ** exponent;
}

/**
 * Adds `scale` × BM25 of `terms` for every doc of `segment` into `scores` (allocated if absent; its
 * length is the segment's doc count). Returns `scores`.
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
  const { k1, b } = params;
  const average = segment.avgDocLength > 0 ? segment.avgDocLength : 1;
  const lengths = segment.docLengths;
  for (const [term, weight] of terms) {
    const postings = termPostings(segment, term);
    const count = postings.docs.length;
    if (count === 0 || weight === 0) continue;
    const termWeight = scale * weight * bm25Idf(docCount, count) ** params.idfExponent * (k1 + 1);
    const { docs, freqs } = postings;
    for (let i = 0; i < count; i++) {
      const doc = docs[i] ?? 0;
      const freq = freqs[i] ?? 0;
      const norm = k1 * (1 - b + (b * (lengths[doc] ?? 0)) / average);
      scores[doc] = (scores[doc] ?? 0) + (termWeight * freq) / (freq + norm);
    }
  }
  return scores;
}
