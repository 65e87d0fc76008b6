/** Vector segments: exact search, int8 quantisation, HNSW recall, and serialisation round trips. */
import { describe, expect, it } from 'vitest';
import { buildHnsw, searchHnsw } from '../../../functions/engine/retrieval/hnsw';
import { deserializeVectors, serializeVectors } from '../../../functions/engine/retrieval/vector-format';
import { buildVectorSegment, rowScore, searchExact } from '../../../functions/engine/retrieval/vector-segment';

/** Deterministic unit vectors in `dimensions`, clustered so that neighbours are meaningful. */
function randomVectors(count: number, dimensions: number, seed = 7): Float32Array[] {
  let state = seed;
  const next = (): number => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296 - 0.5;
  };
  const centres = Array.from({ length: 20 }, () => Float32Array.from({ length: dimensions }, next));
  return Array.from({ length: count }, (_, index) => {
    const centre = centres[index % centres.length] as Float32Array;
    const vector = Float32Array.from(centre, (value) => value + 0.6 * next());
    const norm = Math.hypot(...vector);
    return vector.map((value) => value / norm);
  });
}

function bruteForce(vectors: Float32Array[], query: Float32Array, k: number): number[] {
  const dot = (a: Float32Array): number => a.reduce((sum, value, index) => sum + value * (query[index] ?? 0), 0);
  return vectors
    .map((vector, ordinal) => ({ ordinal, score: dot(vector) }))
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score || a.ordinal - b.ordinal)
    .slice(0, k)
    .map((hit) => hit.ordinal);
}

describe('vector segment', () => {
  const vectors = randomVectors(600, 32);
  const queries = randomVectors(40, 32, 99);

  it('finds the exact top k by dot product (float32)', () => {
    const segment = buildVectorSegment(vectors, 32, 'float32');
    for (const query of queries) {
      expect(searchExact(segment, query, 10).map((hit) => hit.ordinal)).toEqual(bruteForce(vectors, query, 10));
    }
  });

  it('keeps scores within 1% with int8 rows and a quarter of the bytes', () => {
    const exact = buildVectorSegment(vectors, 32, 'float32');
    const quantised = buildVectorSegment(vectors, 32, 'int8');
    expect(quantised.values.byteLength).toBe(exact.values.byteLength / 4);
    for (const query of queries.slice(0, 10)) {
      for (let ordinal = 0; ordinal < 50; ordinal++) {
        expect(Math.abs(rowScore(quantised, ordinal, query) - rowScore(exact, ordinal, query))).toBeLessThan(0.01);
      }
    }
  });

  it('rejects vectors of the wrong size', () => {
    expect(() => buildVectorSegment([new Float32Array(3)], 4)).toThrow(RangeError);
  });

  it('HNSW finds at least 95% of the exact top 10', () => {
    const segment = buildVectorSegment(vectors, 32);
    const ann = buildHnsw(segment, { m: 12, efConstruction: 80 });
    let found = 0;
    for (const query of queries) {
      const truth = new Set(searchExact(segment, query, 10).map((hit) => hit.ordinal));
      found += searchHnsw(ann, segment, query, 10, 60).filter((hit) => truth.has(hit.ordinal)).length / truth.size;
    }
    expect(found / queries.length).toBeGreaterThanOrEqual(0.95);
  });

  it('handles an empty segment and a single vector', () => {
    const empty = buildVectorSegment([], 4);
    expect(searchExact(empty, new Float32Array(4), 3)).toEqual([]);
    expect(searchHnsw(buildHnsw(empty), empty, new Float32Array(4), 3)).toEqual([]);
    const one = buildVectorSegment([Float32Array.of(1, 0, 0, 0)], 4);
    expect(searchHnsw(buildHnsw(one), one, Float32Array.of(1, 0, 0, 0), 3).map((hit) => hit.ordinal)).toEqual([0]);
  });

  it('round-trips through bytes with its graph and answers identically', () => {
    const segment = buildVectorSegment(vectors, 32);
    const ann = buildHnsw(segment);
    const loaded = deserializeVectors(serializeVectors({ segment, ann, embedder: 'test/embedder' }));
    expect(loaded.embedder).toBe('test/embedder');
    expect(loaded.segment.encoding).toBe('int8');
    expect(Array.from(loaded.segment.values)).toEqual(Array.from(segment.values));
    for (const query of queries.slice(0, 10)) {
      expect(searchExact(loaded.segment, query, 5)).toEqual(searchExact(segment, query, 5));
      expect(searchHnsw(loaded.ann ?? ann, loaded.segment, query, 5)).toEqual(searchHnsw(ann, segment, query, 5));
    }
    const floats = buildVectorSegment(vectors.slice(0, 5), 32, 'float32');
    const plain = deserializeVectors(serializeVectors({ segment: floats, ann: null, embedder: null }));
    expect(plain.ann).toBeNull();
    expect(plain.segment.values).toEqual(floats.values);
  });

  it('refuses foreign or truncated bytes', () => {
    const bytes = serializeVectors({ segment: buildVectorSegment(vectors.slice(0, 3), 32), ann: null, embedder: null });
    expect(() => deserializeVectors(bytes.slice(0, bytes.length - 8))).toThrow(/truncated|wrong size/);
    expect(() => deserializeVectors(new TextEncoder().encode('KMLX....'))).toThrow(/magic/);
  });
});
