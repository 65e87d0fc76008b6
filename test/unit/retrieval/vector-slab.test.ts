/** Vectors cut from shared buffers (vector-slab.ts): zeroed, never overlapping, a new buffer when one is used up. */
import { describe, expect, it } from 'vitest';
import { VectorSlab } from '../../../functions/engine/retrieval/vector-slab';

describe('VectorSlab', () => {
  it('hands out zeroed vectors of its dimension that never overlap, across buffers', () => {
    const slab = new VectorSlab(3, 2);
    const vectors = Array.from({ length: 5 }, () => slab.next());
    vectors.forEach((vector, index) => {
      expect(vector.length).toBe(3);
      expect(Array.from(vector)).toEqual([0, 0, 0]);
      vector.fill(index + 1);
    });
    expect(vectors.map((vector) => Array.from(vector))).toEqual([1, 2, 3, 4, 5].map((value) => [value, value, value]));
    // two vectors a buffer: the first two share one, the third starts the next
    expect(vectors[0]?.buffer).toBe(vectors[1]?.buffer);
    expect(vectors[2]?.buffer).not.toBe(vectors[1]?.buffer);
    expect(vectors[4]?.buffer).not.toBe(vectors[3]?.buffer);
  });
});
