/**
 * Ranking restricted to the chunks that may be answered (a filter, removed files, a time window): the
 * allowed ordinals as a mask worked out once per query, and the semantic side's top hits among them.
 * Filtered search is exact and full: when at least `k` allowed rows score above 0, `k` come back, ranked
 * as they rank among the allowed rows alone. A filter that keeps most rows widens the ordinary search
 * (HNSW or the exact scan) and keeps the allowed hits; when that leaves fewer than `k`, or the filter is
 * selective, the allowed rows are scanned exactly (cheap: they are few).
 */
import { topKByScore } from '../lexical/top-k';
import { searchHnsw, type HnswIndex } from './hnsw';
import { rowScore, searchExact, type VectorHit, type VectorSegment } from './vector-segment';

/** The ordinals that may be answered: `mask[ordinal]` is 1 for those, `count` of them. */
export interface AllowedSet {
  mask: Uint8Array;
  count: number;
}

/** Below this share of allowed rows the allowed rows are scanned exactly rather than searched widened. */
const WIDEN_MIN_SHARE = 0.5;

export function allowedSet(size: number, allow: (ordinal: number) => boolean): AllowedSet {
  const mask = new Uint8Array(size);
  let count = 0;
  for (let ordinal = 0; ordinal < size; ordinal++) {
    if (!allow(ordinal)) continue;
    mask[ordinal] = 1;
    count++;
  }
  return { mask, count };
}

export interface AllowedVectorSearch {
  vectors: VectorSegment;
  ann: HnswIndex | null;
  query: Float32Array;
  k: number;
  efSearch: number;
  allowed: AllowedSet;
}

/** The top `k` allowed rows by similarity (above 0), best first (see the module comment). */
export function searchAllowedVectors(search: AllowedVectorSearch): VectorHit[] {
  const { vectors, ann, query, k, allowed } = search;
  if (allowed.count === 0 || k < 1) return [];
  const share = allowed.count / Math.max(1, vectors.count);
  if (share >= WIDEN_MIN_SHARE) {
    const widened = Math.min(vectors.count, Math.ceil(k / share) + k);
    const found = ann ? searchHnsw(ann, vectors, query, widened, Math.max(search.efSearch, widened)) : searchExact(vectors, query, widened);
    const kept = found.filter((hit) => allowed.mask[hit.ordinal] === 1);
    if (kept.length >= Math.min(k, allowed.count)) return kept.slice(0, k);
  }
  return scanAllowed(vectors, query, k, allowed);
}

/** Exact top `k` of the allowed rows: each allowed row scored, the rest left at 0. */
function scanAllowed(vectors: VectorSegment, query: Float32Array, k: number, allowed: AllowedSet): VectorHit[] {
  const scores = new Float64Array(vectors.count);
  for (let ordinal = 0; ordinal < vectors.count; ordinal++) {
    if (allowed.mask[ordinal] === 1) scores[ordinal] = rowScore(vectors, ordinal, query);
  }
  return topKByScore(scores, k).map((ordinal) => ({ ordinal, score: scores[ordinal] ?? 0 }));
}
