/** The quick bound of an answer's wire size, and the ranked head kept by it: the same items as measuring each. */
import { describe, expect, it } from 'vitest';
import { fittingHead, fittingWireHead, wireBytes, wireBytesAtMost } from '../../../functions/http/response-budget';

const awkward = [
  'plain words',
  'quotes " and backslashes \\ and \\"',
  'controls \u0000\u0001\n\t\u001f',
  'accents é, CJK 漢字, emoji 😀',
  'lone surrogates \uD800 and \uDFFF',
  '',
];

describe('wireBytesAtMost', () => {
  it('is never below the measured size, whatever the strings, numbers and nesting', () => {
    const values: unknown[] = [
      ...awkward,
      -1.7976931348623157e308,
      5e-324,
      Number.NaN,
      true,
      null,
      { content: awkward.join(' '), score: 0.123456789, sourceID: 'file-1', missing: undefined },
      awkward.map((content, i) => ({ content, score: i / 7, nested: { list: [content, i, null] } })),
      { 'key "quoted" \u0001': ['x'], date: new Date(0) },
    ];
    for (const value of values) expect(wireBytesAtMost(value)).toBeGreaterThanOrEqual(wireBytes(value));
  });
});

describe('fittingWireHead', () => {
  const passages = Array.from({ length: 100 }, (_, i) => ({
    content: `${awkward[i % awkward.length]} ${'x'.repeat(900)}`,
    score: 1 / (i + 1),
  }));

  it('keeps every item when they fit', () => {
    expect(fittingWireHead(passages)).toEqual(passages);
  });

  it('drops the tail past the budget exactly as measuring each item does', () => {
    for (const budget of [1, 5_000, 40_000, 95_000])
      expect(fittingWireHead(passages, budget)).toEqual(fittingHead(passages, wireBytes, budget));
    expect(fittingWireHead(passages, 1)).toHaveLength(1); // at least one
  });
});
