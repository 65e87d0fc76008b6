/**
 * Exact similarity of a query to every row of a vector segment, in plain JavaScript: the reference
 * arithmetic of exact search. The SIMD path (int8-bounded-search.ts) rescores its candidates with
 * `int8RowDot`, the same arithmetic row by row, so both paths give bit-identical scores.
 *
 * The query is widened to float64 and padded to a multiple of 4; each row is summed in four
 * accumulators (indices ≡ 0, 1, 2, 3 mod 4, which lets the additions overlap) added as
 * `((a + b) + c) + d`, then multiplied by the row's scale.
 */
import { topKByScore } from '../lexical/top-k';
import type { VectorHit, VectorSegment } from './vector-segment';

/** `query` as float64, zero-padded to a multiple of 4 values. */
export function paddedQuery(query: Float32Array): Float64Array {
  const padded = new Float64Array(Math.ceil(query.length / 4) * 4);
  padded.set(query);
  return padded;
}

/** Similarity of `query` to every row, written to `out` (a new array when absent) indexed by ordinal. */
function scoreAllRows(segment: VectorSegment, query: Float32Array, out: Float64Array = new Float64Array(segment.count)): Float64Array {
  const { dimensions, values, scales, count } = segment;
  if (query.length !== dimensions) throw new RangeError(`query has ${query.length} dimensions, expected ${dimensions}`);
  const padded = paddedQuery(query);
  if (values instanceof Int8Array) scoreInt8Rows(values, padded, dimensions, count, out);
  else scoreFloat32Rows(values, padded, dimensions, count, out);
  for (let row = 0; row < count; row++) out[row] = (out[row] as number) * (scales[row] as number);
  return out;
}

const scratch = new WeakMap<VectorSegment, Float64Array>();

/**
 * Exact top `k` by a full scan, best first (similarity > 0 only; ties to the lower ordinal); with `rows`
 * (ascending ordinals), the top `k` among those rows only. The score array is the segment's own, reused
 * across queries: safe because a scan is synchronous.
 */
export function searchExactScan(segment: VectorSegment, query: Float32Array, k: number, rows?: Int32Array): VectorHit[] {
  const scores = scratch.get(segment) ?? new Float64Array(segment.count);
  scratch.set(segment, scores);
  if (rows) scoreSomeRows(segment, query, rows, scores);
  else scoreAllRows(segment, query, scores);
  return topKByScore(scores, k).map((ordinal) => ({ ordinal, score: scores[ordinal] ?? 0 }));
}

/** Like `scoreAllRows` for `rows` alone (a filter's allowed ordinals), the other rows at 0: the same arithmetic row by row. */
function scoreSomeRows(segment: VectorSegment, query: Float32Array, rows: Int32Array, out: Float64Array): void {
  const { dimensions, values, scales } = segment;
  if (query.length !== dimensions) throw new RangeError(`query has ${query.length} dimensions, expected ${dimensions}`);
  const padded = paddedQuery(query);
  out.fill(0);
  if (values instanceof Int8Array) for (const row of rows) out[row] = int8RowDot(values, row * dimensions, padded, dimensions);
  else for (const row of rows) out[row] = float32RowDot(values, row * dimensions, padded, dimensions);
  for (const row of rows) out[row] = (out[row] as number) * (scales[row] as number);
}

/** Unscaled dot product of the int8 row at `offset` with a `paddedQuery`, in the reference order. */
export function int8RowDot(values: Int8Array, offset: number, query: Float64Array, dimensions: number): number {
  const whole = dimensions - (dimensions % 4);
  let a = 0,
    b = 0,
    c = 0,
    d = 0;
  let index = 0;
  for (; index < whole; index += 4) {
    a += (values[offset + index] as number) * (query[index] as number);
    b += (values[offset + index + 1] as number) * (query[index + 1] as number);
    c += (values[offset + index + 2] as number) * (query[index + 2] as number);
    d += (values[offset + index + 3] as number) * (query[index + 3] as number);
  }
  for (; index < dimensions; index++) a += (values[offset + index] as number) * (query[index] as number);
  return a + b + c + d;
}

// The two loops below are kept apart so each stays monomorphic (one array type), which V8 compiles to
// much faster code; the int8 one calls int8RowDot, which V8 inlines.
function scoreInt8Rows(values: Int8Array, query: Float64Array, dimensions: number, count: number, out: Float64Array): void {
  for (let row = 0, offset = 0; row < count; row++, offset += dimensions) out[row] = int8RowDot(values, offset, query, dimensions);
}

function scoreFloat32Rows(values: Float32Array, query: Float64Array, dimensions: number, count: number, out: Float64Array): void {
  for (let row = 0, offset = 0; row < count; row++, offset += dimensions) out[row] = float32RowDot(values, offset, query, dimensions);
}

/** `int8RowDot` for a float32 row: the same order of additions. */
function float32RowDot(values: Float32Array, offset: number, query: Float64Array, dimensions: number): number {
  const whole = dimensions - (dimensions % 4);
  let a = 0,
    b = 0,
    c = 0,
    d = 0;
  let index = 0;
  for (; index < whole; index += 4) {
    a += (values[offset + index] as number) * (query[index] as number);
    b += (values[offset + index + 1] as number) * (query[index + 1] as number);
    c += (values[offset + index + 2] as number) * (query[index + 2] as number);
    d += (values[offset + index + 3] as number) * (query[index + 3] as number);
  }
  for (; index < dimensions; index++) a += (values[offset + index] as number) * (query[index] as number);
  return a + b + c + d;
}
