/** The WebAssembly SIMD int8 kernel and the exact search built on it agree with the JavaScript scan. */
import { describe, expect, it } from 'vitest';
import { inheritLargestRowNorm, searchInt8Bounded } from '../../../functions/engine/retrieval/int8-bounded-search';
import { int8DotKernel, int8KernelSupported } from '../../../functions/engine/retrieval/int8-dot-kernel';
import { INT8_DOT_WASM } from '../../../functions/engine/retrieval/int8-dot-wasm';
import { buildVectorSegment, searchExact, searchExactScan, type VectorSegment } from '../../../functions/engine/retrieval/vector-segment';
import { assembleInt8DotModule } from '../../../scripts/wasm/int8-dot';

function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

function randomVectors(count: number, dimensions: number, seed: number, magnitude = 1): Float32Array[] {
  const next = generator(seed);
  return Array.from({ length: count }, () => Float32Array.from({ length: dimensions }, () => (next() - 0.5) * magnitude));
}

/** A segment with the given int8 rows and scales, as a reader of a stored index would see it. */
function int8Segment(rows: number[][], scales: number[]): VectorSegment {
  const dimensions = rows[0]?.length ?? 1;
  return { dimensions, count: rows.length, encoding: 'int8', values: Int8Array.from(rows.flat()), scales: Float32Array.from(scales) };
}

function expectSameAsScan(segment: VectorSegment, query: Float32Array, k: number): void {
  const kernel = int8DotKernel(segment);
  const bounded = kernel ? searchInt8Bounded(segment, kernel, query, k) : null;
  const scanned = searchExactScan(segment, query, k);
  if (segment.count > 0) expect(bounded).not.toBeNull();
  expect(bounded ?? []).toEqual(scanned);
  expect(searchExact(segment, query, k)).toEqual(scanned);
}

describe('int8 dot kernel', () => {
  it('is the assembler output and runs on this Node', () => {
    expect(Array.from(INT8_DOT_WASM)).toEqual(Array.from(assembleInt8DotModule()));
    expect(int8KernelSupported()).toBe(true);
  });

  it('gives the exact integer dot products, at sizes that are not multiples of 16 and extreme values', () => {
    for (const dimensions of [1, 3, 15, 16, 17, 31, 100, 129]) {
      for (const count of [1, 2, 3, 7, 64]) {
        const next = generator(dimensions * 1000 + count);
        const rows = Array.from({ length: count }, () => Array.from({ length: dimensions }, () => Math.floor(next() * 256) - 128));
        rows[0]?.fill(-128);
        const segment = int8Segment(rows, new Array<number>(count).fill(1));
        const kernel = int8DotKernel(segment);
        if (!kernel) throw new Error('no kernel');
        const query = Array.from({ length: dimensions }, (_, index) => (index % 5 === 0 ? -32767 : Math.floor(next() * 65535) - 32767));
        kernel.query.set(query);
        const dots = Array.from(kernel.run());
        expect(dots).toEqual(rows.map((row) => row.reduce((sum, value, index) => sum + value * (query[index] ?? 0), 0)));
      }
    }
  });

  it('finds the same hits and scores as the JavaScript scan on random data', () => {
    for (const dimensions of [1, 3, 16, 17, 100]) {
      for (const count of [1, 2, 5, 300]) {
        const segment = buildVectorSegment(randomVectors(count, dimensions, count + dimensions), dimensions);
        for (const [index, query] of randomVectors(6, dimensions, 99 + dimensions).entries()) {
          for (const k of [1, 5, 10, 400]) expectSameAsScan(segment, query, k);
          expectSameAsScan(
            segment,
            query.map((value) => value * 10 ** (index - 3)),
            10,
          );
        }
      }
    }
  });

  it('restricted to some rows, finds the full scan’s hits among them with the same scores, on both paths', () => {
    const dimensions = 37;
    const count = 500;
    const segment = buildVectorSegment(randomVectors(count, dimensions, 7), dimensions);
    const float32 = buildVectorSegment(randomVectors(count, dimensions, 7), dimensions, 'float32');
    const subsets: Record<string, number[]> = {
      runs: [...Array.from({ length: 40 }, (_, i) => 10 + i), ...Array.from({ length: 25 }, (_, i) => 300 + i), 499],
      scattered: Array.from({ length: 50 }, (_, i) => i * 10 + (i % 3)),
      'first and last': [0, count - 1],
      'fewer than k': [3, 4, 200],
    };
    for (const [name, subset] of Object.entries(subsets)) {
      const rows = Int32Array.from(subset);
      for (const [q, query] of randomVectors(5, dimensions, 11).entries()) {
        for (const k of [1, 10, 100]) {
          const among = new Set(subset);
          const expected = (target: VectorSegment) =>
            searchExactScan(target, query, count)
              .filter((hit) => among.has(hit.ordinal))
              .slice(0, k);
          const kernel = int8DotKernel(segment);
          if (!kernel) throw new Error('no kernel');
          const bounded = searchInt8Bounded(segment, kernel, query, k, rows);
          expect(bounded, `${name}, query ${q}, k ${k}`).toEqual(expected(segment));
          expect(searchExactScan(segment, query, k, rows), `${name}, JavaScript`).toEqual(expected(segment));
          expect(searchExact(segment, query, k, rows)).toEqual(expected(segment));
          expect(searchExact(float32, query, k, rows), `${name}, float32`).toEqual(expected(float32));
        }
      }
    }
  });

  it('keeps the scan’s order for ties and for rows the quantized query cannot tell apart', () => {
    const near = Array.from({ length: 200 }, (_, row) => Array.from({ length: 20 }, (_, index) => (index === row % 20 ? 101 : 100)));
    const rows = [...near, ...near.slice(0, 50)];
    const scales = rows.map((_, row) => 0.001 * (1 + (row % 3) * 1e-7));
    const segment = int8Segment(rows, scales);
    for (const query of randomVectors(10, 20, 5)) {
      const nearlyFlat = query.map((value) => 1 + value * 1e-6);
      expectSameAsScan(segment, nearlyFlat, 10);
      expectSameAsScan(segment, nearlyFlat, 120);
    }
  });

  it('finds rows whose order the quantized query reverses', () => {
    // q' = (32767, 0): the second coordinate is lost, so rows 2k (a bit larger scale) lead the integer
    // pass, while rows 2k+1 (127 in the lost coordinate) are the exact best.
    const rows = Array.from({ length: 20 }, (_, row) => (row % 2 === 0 ? [100, 0] : [100, 127]));
    const segment = int8Segment(
      rows,
      rows.map((_, row) => (row % 2 === 0 ? 1 : 1 - 1e-6)),
    );
    const query = Float32Array.of(1, 1e-5);
    expectSameAsScan(segment, query, 5);
    expect(searchExact(segment, query, 5).map((hit) => hit.ordinal)).toEqual([1, 3, 5, 7, 9]);
  });

  it('answers empty, zero, negative and non-finite cases like the scan', () => {
    const empty = buildVectorSegment([], 5);
    expect(int8DotKernel(empty)).toBeNull();
    expectSameAsScan(empty, new Float32Array(5), 3);
    const segment = buildVectorSegment(randomVectors(40, 5, 3), 5);
    expectSameAsScan(segment, new Float32Array(5), 3);
    const zeroRows = int8Segment(
      [
        [0, 0, 0],
        [1, 2, 3],
      ],
      [0, 0.1],
    );
    expectSameAsScan(zeroRows, Float32Array.of(1, 1, 1), 2);
    expectSameAsScan(zeroRows, Float32Array.of(-1, -1, -1), 2);
    const notFinite = Float32Array.of(1, Number.NaN, 0, 0, 0);
    expect(searchInt8Bounded(segment, int8DotKernel(segment) ?? fail(), notFinite, 3)).toBeNull();
    expect(searchExact(segment, notFinite, 3)).toEqual(searchExactScan(segment, notFinite, 3));
  });

  it('a composed segment inherits its parts’ largest row norm and finds the scan’s hits, its largest rows left out', () => {
    const dimensions = 24;
    const big = buildVectorSegment(randomVectors(200, dimensions, 21, 4), dimensions);
    const small = buildVectorSegment(randomVectors(50, dimensions, 22), dimensions);
    // the composed rows: every other row of the big part (its largest may be among those left out), all of the small one
    const kept = Array.from({ length: 100 }, (_, i) => 2 * i);
    const values = new Int8Array((kept.length + small.count) * dimensions);
    const scales = new Float32Array(kept.length + small.count);
    kept.forEach((row, i) => {
      values.set(big.values.subarray(row * dimensions, (row + 1) * dimensions) as Int8Array, i * dimensions);
      scales[i] = big.scales[row] ?? 0;
    });
    values.set(small.values as Int8Array, kept.length * dimensions);
    scales.set(small.scales, kept.length);
    const composed: VectorSegment = { dimensions, count: scales.length, encoding: 'int8', values, scales };
    inheritLargestRowNorm(composed, [big, small]);
    for (const [i, query] of randomVectors(20, dimensions, 23).entries()) expectSameAsScan(composed, query, 1 + (i % 12));
  });

  it('scans in JavaScript for float32 rows', () => {
    const segment = buildVectorSegment(randomVectors(30, 8, 11), 8, 'float32');
    expect(int8DotKernel(segment)).toBeNull();
    const [query] = randomVectors(1, 8, 12);
    expect(searchExact(segment, query ?? fail(), 5)).toEqual(searchExactScan(segment, query ?? fail(), 5));
  });
});

function fail(): never {
  throw new Error('missing test value');
}
