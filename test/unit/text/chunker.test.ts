/** Chunker invariants (property-based) and examples: size, coverage, overlap, determinism. */
import { fc } from '../../support/property-seed';
import { describe, expect, it } from 'vitest';
import {
  type Chunk,
  chunkText,
  GRAPH_CHUNK_DEFAULTS,
  normalizeWhitespace,
  VECTOR_CHUNK_DEFAULTS,
} from '../../../functions/engine/text/chunker';

const word = (maxLength: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom('a', 'b', 'e', 'K', 'é', '1', '-', "'", '🙂'), minLength: 1, maxLength });
const separator = fc.constantFrom(' ', ' ', ' ', '  ', '\n', '\n\n', ' \t ', ', ');
const ending = fc.constantFrom('.', '!', '?', '', '...');

/** Sentence-like text of short words (<= 8 code units each). */
const shortSentenceText = fc
  .array(
    fc
      .tuple(fc.array(word(4), { minLength: 1, maxLength: 10 }), ending, separator)
      .map(([words, end, gap]) => `${words.join(' ')}${end}${gap}`),
    { minLength: 0, maxLength: 40, size: 'max' },
  )
  .map((sentences) => sentences.join(''));

/** Short sentences that always split: each opens with "The" and ends with . ! or ?. */
const splittingSentenceText = fc
  .array(
    fc
      .tuple(fc.array(word(4), { maxLength: 9 }), fc.constantFrom('.', '!', '?'), fc.constantFrom(' ', '\n', '\n\n'))
      .map(([words, end, gap]) => `The ${words.join(' ')}${end}${gap}`),
    { maxLength: 60, size: 'max' },
  )
  .map((sentences) => sentences.join(''));

const giantWord = fc.string({ unit: fc.constantFrom('x', 'y', '🙂'), minLength: 50, maxLength: 900, size: 'max' });

/** Any mix of words (some far longer than a chunk) and whitespace. */
const roughText = fc
  .array(fc.tuple(fc.oneof({ arbitrary: word(8), weight: 8 }, { arbitrary: giantWord, weight: 1 }), separator), {
    maxLength: 80,
    size: 'max',
  })
  .map((parts) => parts.map(([text, gap]) => text + gap).join(''));

const options = fc.record({
  chunkSize: fc.integer({ min: 2, max: 600 }),
  overlapPercent: fc.integer({ min: 0, max: 50 }),
});

/** Normalised characters shared by consecutive chunks. */
function overlapLength(text: string, previous: Chunk, next: Chunk): number {
  return next.start < previous.end ? normalizeWhitespace(text.slice(next.start, previous.end)).length : 0;
}

/** The first broken invariant of `chunks` for `text`, or '' if all hold. */
function brokenInvariant(text: string, chunks: Chunk[], chunkSize: number): string {
  if (text.trim().length === 0) return chunks.length === 0 ? '' : 'chunks for blank text';
  if (chunks[0]?.start !== text.length - text.trimStart().length) return 'first chunk does not start the text';
  if (chunks[chunks.length - 1]?.end !== text.trimEnd().length) return 'last chunk does not end the text';
  for (const [index, chunk] of chunks.entries()) {
    if (chunk.index !== index) return `index ${chunk.index} at ${index}`;
    if (chunk.text.length === 0 || chunk.text.length > chunkSize) return `chunk ${index} has size ${chunk.text.length}`;
    if (normalizeWhitespace(text.slice(chunk.start, chunk.end)) !== chunk.text) return `chunk ${index} offsets`;
    const previous = chunks[index - 1];
    if (!previous) continue;
    if (chunk.start <= previous.start || chunk.end <= previous.end) return `chunk ${index} does not advance`;
    if (chunk.start > previous.end && text.slice(previous.end, chunk.start).trim() !== '') {
      return `text lost before chunk ${index}`;
    }
  }
  return '';
}

describe('chunkText', () => {
  it('exports the documented defaults', () => {
    expect(GRAPH_CHUNK_DEFAULTS).toEqual({ chunkSize: 1200, overlapPercent: 10 });
    expect(VECTOR_CHUNK_DEFAULTS).toEqual({ chunkSize: 1000, overlapPercent: 10 });
  });

  it('rejects bad options', () => {
    expect(() => chunkText('a', { chunkSize: 1, overlapPercent: 0 })).toThrow(RangeError);
    expect(() => chunkText('a', { chunkSize: 10.5, overlapPercent: 0 })).toThrow(RangeError);
    expect(() => chunkText('a', { chunkSize: 10, overlapPercent: 51 })).toThrow(RangeError);
    expect(() => chunkText('a', { chunkSize: 10, overlapPercent: -1 })).toThrow(RangeError);
  });

  it('returns no chunk for empty or blank text and one chunk for short text', () => {
    expect(chunkText('', VECTOR_CHUNK_DEFAULTS)).toEqual([]);
    expect(chunkText(' \n\t', VECTOR_CHUNK_DEFAULTS)).toEqual([]);
    expect(chunkText('  Hello   world.\n\nBye. ', VECTOR_CHUNK_DEFAULTS)).toEqual([
      { index: 0, text: 'Hello world.\nBye.', start: 2, end: 22 },
    ]);
  });

  it('packs whole sentences and does not cut inside one that fits', () => {
    const text = 'One two three. Four five six. Seven eight nine. Ten eleven twelve.';
    const chunks = chunkText(text, { chunkSize: 32, overlapPercent: 0 });
    expect(chunks.map((chunk) => chunk.text)).toEqual(['One two three. Four five six.', 'Seven eight nine.', 'Ten eleven twelve.']);
  });

  it('overlaps with whole trailing sentences when they make up the overlap', () => {
    const text = 'Aa aa. Bb bb. Cc cc. Dd dd. Ee ee. Ff ff. Gg gg. Hh hh.';
    const chunks = chunkText(text, { chunkSize: 27, overlapPercent: 50 });
    expect(chunks.map((chunk) => chunk.text)).toEqual([
      'Aa aa. Bb bb. Cc cc. Dd dd.',
      'Cc cc. Dd dd. Ee ee. Ff ff.',
      'Ee ee. Ff ff. Gg gg. Hh hh.',
    ]);
  });

  it('cuts a long sentence between words and only a giant word inside', () => {
    const sentence = 'alpha beta gamma delta epsilon zeta eta theta';
    for (const chunk of chunkText(sentence, { chunkSize: 12, overlapPercent: 0 })) {
      expect(sentence.split(' ')).toEqual(expect.arrayContaining(chunk.text.split(' ')));
    }
    const giant = `start ${'x'.repeat(25)} end`;
    expect(chunkText(giant, { chunkSize: 10, overlapPercent: 0 }).map((chunk) => chunk.text)).toEqual([
      'start',
      'xxxxxxxxxx',
      'xxxxxxxxxx',
      'xxxxx end',
    ]);
  });

  it('never cuts a surrogate pair', () => {
    const chunks = chunkText('🙂🙂🙂🙂', { chunkSize: 3, overlapPercent: 0 });
    expect(chunks.map((chunk) => chunk.text)).toEqual(['🙂', '🙂', '🙂', '🙂']);
  });

  it('keeps size and coverage invariants on any text (property)', () => {
    fc.assert(
      fc.property(fc.oneof(shortSentenceText, splittingSentenceText, roughText), options, (text, chunkOptions) => {
        expect(brokenInvariant(text, chunkText(text, chunkOptions), chunkOptions.chunkSize)).toBe('');
      }),
      { numRuns: 400 },
    );
  });

  it('overlaps by about the requested percentage, never more, given short sentences (property)', () => {
    const sizes = fc.record({
      chunkSize: fc.integer({ min: 200, max: 600 }),
      overlapPercent: fc.integer({ min: 10, max: 50 }),
    });
    fc.assert(
      fc.property(splittingSentenceText, sizes, (text, chunkOptions) => {
        const chunks = chunkText(text, chunkOptions);
        const target = Math.floor((chunkOptions.chunkSize * chunkOptions.overlapPercent) / 100);
        for (let index = 1; index < chunks.length; index++) {
          const overlap = overlapLength(text, chunks[index - 1] as Chunk, chunks[index] as Chunk);
          expect(overlap).toBeLessThanOrEqual(target);
          expect(overlap).toBeGreaterThanOrEqual(target / 2);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('has no overlap at 0% and then reproduces the normalised text', () => {
    fc.assert(
      fc.property(shortSentenceText, fc.integer({ min: 2, max: 300 }), (text, chunkSize) => {
        const chunks = chunkText(text, { chunkSize, overlapPercent: 0 });
        for (let index = 1; index < chunks.length; index++) {
          expect((chunks[index] as Chunk).start).toBeGreaterThanOrEqual((chunks[index - 1] as Chunk).end);
        }
        const joined = chunks
          .map((chunk, index) => (index > 0 && chunk.start > (chunks[index - 1] as Chunk).end ? ' ' : '') + chunk.text)
          .join('');
        expect(joined.replace(/\s+/g, ' ')).toBe(normalizeWhitespace(text).replace(/\s+/g, ' '));
      }),
      { numRuns: 200 },
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(roughText, options, (text, chunkOptions) => {
        expect(chunkText(text, chunkOptions)).toEqual(chunkText(text, chunkOptions));
      }),
      { numRuns: 100 },
    );
  });
});

describe('normalizeWhitespace', () => {
  it('collapses runs to one newline or one space and trims', () => {
    expect(normalizeWhitespace('  a \t b\n\n  c\r\nd  ')).toBe('a b\nc\nd');
  });
});
