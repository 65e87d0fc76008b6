/**
 * Ranking restricted to the chunks that may be answered (a filter, removed files, a time window): the
 * allowed ordinals as a mask and an ascending list, and the semantic side's top hits among them.
 * Filtered search is exact and full: when at least `k` allowed rows score above 0, `k` come back, ranked
 * as they rank among the allowed rows alone. Exact search (no HNSW) scores the allowed rows only (the
 * SIMD kernel over their runs, vector-segment.ts), so its hits and scores are the unfiltered scan's hits
 * among them, at a cost that falls with the share allowed. With HNSW, a filter that keeps most rows widens
 * the graph search and keeps the allowed hits; when that leaves fewer than `k`, or the filter is
 * selective, the allowed rows are searched exactly.
 *
 * The set is worked out by the caller once per (index version, filter) and kept (the service does:
 * core/use-cases/retrieval-scope.ts), so a warm filtered query does not visit every chunk to know which
 * it may answer.
 */
import { searchHnsw, type HnswIndex } from './hnsw';
import { searchExact, type VectorHit, type VectorSegment } from './vector-segment';

/** The ordinals that may be answered: `mask[ordinal]` is 1 for those; `ordinals` lists them ascending, `count` of them. */
export interface AllowedSet {
  readonly mask: Uint8Array;
  readonly ordinals: Int32Array;
  readonly count: number;
}

/** Below this share of allowed rows, HNSW is not widened: the allowed rows are searched exactly. */
const WIDEN_MIN_SHARE = 0.5;

/** The ordinals below `size` that `allow` lets through. */
export function allowedSet(size: number, allow: (ordinal: number) => boolean): AllowedSet {
  const mask = new Uint8Array(size);
  let count = 0;
  for (let ordinal = 0; ordinal < size; ordinal++) {
    if (!allow(ordinal)) continue;
    mask[ordinal] = 1;
    count++;
  }
  const ordinals = new Int32Array(count);
  for (let ordinal = 0, next = 0; ordinal < size; ordinal++) if (mask[ordinal] === 1) ordinals[next++] = ordinal;
  return { mask, ordinals, count };
}

/** The set as an ordinal check. */
export function allowsOrdinal(allowed: AllowedSet): (ordinal: number) => boolean {
  const { mask } = allowed;
  return (ordinal) => mask[ordinal] === 1;
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
  if (ann && share >= WIDEN_MIN_SHARE) {
    const widened = Math.min(vectors.count, Math.ceil(k / share) + k);
    const found = searchHnsw(ann, vectors, query, widened, Math.max(search.efSearch, widened));
    const kept = found.filter((hit) => allowed.mask[hit.ordinal] === 1);
    if (kept.length >= Math.min(k, allowed.count)) return kept.slice(0, k);
  }
  return searchExact(vectors, query, k, rowsBelow(allowed.ordinals, vectors.count));
}

/** The ascending `ordinals` below `count` (a segment holds no row past its count). */
function rowsBelow(ordinals: Int32Array, count: number): Int32Array {
  let end = ordinals.length;
  while (end > 0 && (ordinals[end - 1] as number) >= count) end--;
  return end === ordinals.length ? ordinals : ordinals.subarray(0, end);
}
