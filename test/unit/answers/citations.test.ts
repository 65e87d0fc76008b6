/** The grounding check of generated answers: citations present, in range, in their usual forms. */
import { describe, expect, it } from 'vitest';
import { checkCitations, citationsIn } from '../../../functions/core/answers/citations';

describe('citations', () => {
  it('reads single, grouped, listed and ranged citations', () => {
    expect(citationsIn('Founded in 1909 [2]. She worked there [1][3].')).toEqual([1, 2, 3]);
    expect(citationsIn('Both [1, 4] and [2; 3].')).toEqual([1, 2, 3, 4]);
    expect(citationsIn('See [2-4] and [6–7].')).toEqual([2, 3, 4, 6, 7]);
    expect(citationsIn('No citation here, [a] nor [].')).toEqual([]);
  });

  it('accepts an answer citing only existing items', () => {
    expect(checkCitations('It was founded in 1909 [1][2].', 2)).toEqual({ ok: true, citations: [1, 2] });
  });

  it('refuses an empty answer, an answer without citations, and one citing items that do not exist', () => {
    expect(checkCitations('  ', 3)).toEqual({ ok: false, problem: 'empty answer' });
    expect(checkCitations('It was founded in 1909.', 3)).toEqual({ ok: false, problem: 'the answer cites no evidence item' });
    expect(checkCitations('It was founded in 1909 [4].', 3)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/cites \[4\], outside the 3 evidence items/),
    });
    expect(checkCitations('Zero [0] is not an item.', 3)).toMatchObject({ ok: false });
    expect(checkCitations('A backwards range [3-1].', 3)).toMatchObject({ ok: false, problem: expect.stringMatching(/malformed range/) });
    expect(checkCitations('The year [1909] is no citation.', 3)).toMatchObject({ ok: false });
  });
});
