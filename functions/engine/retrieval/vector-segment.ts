/**
 * Chunk vectors in a compact segment, and exact top-k search by dot product (vectors are unit length,
 * so this is cosine similarity).
 *
 * Encodings: `float32`, or `int8` with one scale per row (value ≈ scale × byte, scale = max|v| / 127):
 * a quarter of the bytes. Measured on the dev splits, int8 moves no metric by more than ±0.005 against
 * float32 (bench/quality/pooling.ts), so it is the default. Rows are numbered like the chunks of the index
 * (ordinals). Serialisation lives in vector-format.ts; exact search in exact-scan.ts (JavaScript) and
 * int8-bounded-search.ts (WebAssembly SIMD).
 */
import { searchExactScan } from './exact-scan';
import { searchInt8Bounded } from './int8-bounded-search';
import { int8DotKernel } from './int8-dot-kernel';

export { searchExactScan } from './exact-scan';

export type VectorEncoding = 'float32' | 'int8';

export interface VectorSegment {
  readonly dimensions: number;
  readonly count: number;
  readonly encoding: VectorEncoding;
  /** Row-major values, `count * dimensions`. */
  readonly values: Float32Array | Int8Array;
  /** Per-row scale (int8); all 1 for float32. */
  readonly scales: Float32Array;
}

/** One search result: a row ordinal and its similarity to the query. */
export interface VectorHit {
  ordinal: number;
  score: number;
}

/** Packs `vectors` (each `dimensions` long) into a segment. */
export function buildVectorSegment(vectors: readonly Float32Array[], dimensions: number, encoding: VectorEncoding = 'int8'): VectorSegment {
  const count = vectors.length;
  const scales = new Float32Array(count).fill(1);
  const values = encoding === 'int8' ? new Int8Array(count * dimensions) : new Float32Array(count * dimensions);
  vectors.forEach((vector, row) => {
    if (vector.length !== dimensions) throw new RangeError(`vector ${row} has ${vector.length} dimensions, expected ${dimensions}`);
    if (values instanceof Float32Array) values.set(vector, row * dimensions);
    else scales[row] = quantizeRow(vector, values, row * dimensions);
  });
  return { dimensions, count, encoding, values, scales };
}

/** Writes `vector` as bytes at `offset`; returns its scale. */
function quantizeRow(vector: Float32Array, out: Int8Array, offset: number): number {
  let largest = 0;
  for (const value of vector) largest = Math.max(largest, Math.abs(value));
  if (largest === 0) return 0;
  const scale = largest / 127;
  for (let index = 0; index < vector.length; index++) out[offset + index] = Math.round((vector[index] ?? 0) / scale);
  return scale;
}

/** Dot product of `query` with row `ordinal`. */
export function rowScore(segment: VectorSegment, ordinal: number, query: Float32Array): number {
  const { dimensions, values } = segment;
  const offset = ordinal * dimensions;
  let sum = 0;
  for (let index = 0; index < dimensions; index++) sum += (values[offset + index] ?? 0) * (query[index] ?? 0);
  return sum * (segment.scales[ordinal] ?? 0);
}

/**
 * Exact top `k` rows by similarity, best first (rows with similarity ≤ 0 are never returned; ties go to
 * the lower ordinal). Int8 rows use the SIMD kernel and rescore only the rows that can still make the
 * top k (int8-bounded-search.ts); float32 rows, or a runtime without WebAssembly SIMD, scan every row in
 * JavaScript (exact-scan.ts). Both give the same hits and scores. With `rows` (ascending ordinals, e.g. what
 * a filter allows), only those rows are scored: the hits are the unrestricted search's hits among them.
 */
export function searchExact(segment: VectorSegment, query: Float32Array, k: number, rows?: Int32Array): VectorHit[] {
  if (query.length !== segment.dimensions) throw new RangeError(`query has ${query.length} dimensions, expected ${segment.dimensions}`);
  const kernel = int8DotKernel(segment);
  return (kernel && searchInt8Bounded(segment, kernel, query, k, rows)) ?? searchExactScan(segment, query, k, rows);
}

/** Row `ordinal` as float values (dequantised for int8). */
export function rowVector(segment: VectorSegment, ordinal: number): Float32Array {
  const { dimensions } = segment;
  const out = new Float32Array(dimensions);
  const scale = segment.scales[ordinal] ?? 0;
  for (let index = 0; index < dimensions; index++) out[index] = (segment.values[ordinal * dimensions + index] ?? 0) * scale;
  return out;
}
