/**
 * Chunk vectors in a compact segment, and exact top-k search by dot product (vectors are unit length,
 * so this is cosine similarity).
 *
 * Encodings: `float32`, or `int8` with one scale per row (value ≈ scale × byte, scale = max|v| / 127):
 * a quarter of the bytes. Measured on the dev splits, int8 moves no metric by more than ±0.005 against
 * float32 (bench/quality/pooling.ts), so it is the default. Rows are numbered like the chunks of the index
 * (ordinals). Serialisation lives in vector-format.ts.
 */
import { topKByScore } from '../lexical/top-k';

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
export function buildVectorSegment(
  vectors: readonly Float32Array[],
  dimensions: number,
  encoding: VectorEncoding = 'int8',
): VectorSegment {
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

/** Similarity of `query` to every row, as a dense array indexed by ordinal. */
export function scoreAllRows(segment: VectorSegment, query: Float32Array): Float64Array {
  const { dimensions, values, scales, count } = segment;
  if (query.length !== dimensions) throw new RangeError(`query has ${query.length} dimensions, expected ${dimensions}`);
  const scores = new Float64Array(count);
  const padded = new Float64Array(Math.ceil(dimensions / 4) * 4);
  padded.set(query);
  if (values instanceof Int8Array) scoreInt8Rows(values, padded, dimensions, scores);
  else scoreFloat32Rows(values, padded, dimensions, scores);
  for (let row = 0; row < count; row++) scores[row] = (scores[row] as number) * (scales[row] as number);
  return scores;
}

// The two loops below are the same but kept apart so each stays monomorphic (one array type), which
// V8 compiles to much faster code; four accumulators let the additions overlap.
function scoreInt8Rows(values: Int8Array, query: Float64Array, dimensions: number, out: Float64Array): void {
  const whole = dimensions - (dimensions % 4);
  for (let row = 0, offset = 0; row < out.length; row++, offset += dimensions) {
    let a = 0, b = 0, c = 0, d = 0;
    let index = 0;
    for (; index < whole; index += 4) {
      a += (values[offset + index] as number) * (query[index] as number);
      b += (values[offset + index + 1] as number) * (query[index + 1] as number);
      c += (values[offset + index + 2] as number) * (query[index + 2] as number);
      d += (values[offset + index + 3] as number) * (query[index + 3] as number);
    }
    for (; index < dimensions; index++) a += (values[offset + index] as number) * (query[index] as number);
    out[row] = a + b + c + d;
  }
}

function scoreFloat32Rows(values: Float32Array, query: Float64Array, dimensions: number, out: Float64Array): void {
  const whole = dimensions - (dimensions % 4);
  for (let row = 0, offset = 0; row < out.length; row++, offset += dimensions) {
    let a = 0, b = 0, c = 0, d = 0;
    let index = 0;
    for (; index < whole; index += 4) {
      a += (values[offset + index] as number) * (query[index] as number);
      b += (values[offset + index + 1] as number) * (query[index + 1] as number);
      c += (values[offset + index + 2] as number) * (query[index + 2] as number);
      d += (values[offset + index + 3] as number) * (query[index + 3] as number);
    }
    for (; index < dimensions; index++) a += (values[offset + index] as number) * (query[index] as number);
    out[row] = a + b + c + d;
  }
}

/** Exact top `k` rows by similarity, best first (rows with similarity ≤ 0 are never returned). */
export function searchExact(segment: VectorSegment, query: Float32Array, k: number): VectorHit[] {
  const scores = scoreAllRows(segment, query);
  return topKByScore(scores, k).map((ordinal) => ({ ordinal, score: scores[ordinal] ?? 0 }));
}

/** Row `ordinal` as float values (dequantised for int8). */
export function rowVector(segment: VectorSegment, ordinal: number): Float32Array {
  const { dimensions } = segment;
  const out = new Float32Array(dimensions);
  const scale = segment.scales[ordinal] ?? 0;
  for (let index = 0; index < dimensions; index++) out[index] = (segment.values[ordinal * dimensions + index] ?? 0) * scale;
  return out;
}
