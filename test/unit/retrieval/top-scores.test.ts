/** The n-th largest score over some docs (the pruned lexical top-N's threshold) equals a sort's answer. */
import { describe, expect, it } from 'vitest';
import { nthLargest } from '../../../functions/engine/retrieval/top-scores';
import { fc } from '../../support/property-seed';

describe('nthLargest', () => {
  it('is the n-th largest of the docs’ scores, ties and short lists included', () => {
    const score = fc.oneof(fc.constantFrom(0, 0.5, 1, 2), fc.double({ min: 0, max: 10, noNaN: true }));
    fc.assert(
      fc.property(fc.array(score, { minLength: 1, maxLength: 60 }), fc.integer({ min: 0, max: 12 }), fc.boolean(), (values, n, asTyped) => {
        const scores = Float64Array.from(values);
        const picked = values.map((_, doc) => doc).filter((doc) => doc % 3 !== 1);
        const docs = asTyped ? Uint32Array.from(picked) : picked;
        const sorted = picked.map((doc) => values[doc] as number).sort((a, b) => b - a);
        const expected = n < 1 || sorted.length < n ? 0 : (sorted[n - 1] as number);
        expect(nthLargest(scores, docs, n)).toBe(expected);
      }),
      { numRuns: 800 },
    );
  });
});
