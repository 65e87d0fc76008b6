/** A term's live document count without decoding postings: plain segments, composed ones with and without deleted docs. */
import { fc } from '../../support/property-seed';
import { describe, expect, it } from 'vitest';
import { composeSegments } from '../../../functions/engine/lexical/segment-compose';
import { buildSegment, type LexicalSegment, termDocFreq, termPostings } from '../../../functions/engine/lexical/segment';

const RAW = { stem: false, stopwords: false, language: 'en' as const };
const WORDS = ['apple', 'banana', 'cherry', 'date', 'elder'];

/** Parts of a composed segment: each doc kept (its next composed ordinal) unless marked deleted. */
function composed(segments: readonly LexicalSegment[], deleted: readonly (readonly boolean[])[]): LexicalSegment {
  let next = 0;
  const parts = segments.map((segment, s) => ({
    segment,
    ordinals: Int32Array.from(segment.docIds, (_, doc) => (deleted[s]?.[doc] ? -1 : next++)),
  }));
  return composeSegments(parts, next);
}

describe('termDocFreq', () => {
  it('counts the docs holding a term in a plain segment, 0 for an unknown term', () => {
    const segment = buildSegment(
      [
        { id: 'a', fileId: 'f', text: 'apple banana apple' },
        { id: 'b', fileId: 'f', text: 'banana' },
      ],
      RAW,
    );
    expect(termDocFreq(segment, 'apple')).toBe(1);
    expect(termDocFreq(segment, 'banana')).toBe(2);
    expect(termDocFreq(segment, 'cherry')).toBe(0);
  });

  it('equals the length of the live posting list of any composed segment', () => {
    const doc = fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 4 }).map((words) => words.join(' '));
    const part = fc.array(fc.record({ text: doc, deleted: fc.boolean() }), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 3 }), (parts) => {
        const segments = parts.map((docs, s) =>
          buildSegment(
            docs.map((d, i) => ({ id: `s${s}-${i}`, fileId: 'f', text: d.text })),
            RAW,
          ),
        );
        const segment = composed(
          segments,
          parts.map((docs) => docs.map((d) => d.deleted)),
        );
        for (const term of [...WORDS, 'unknown']) expect(termDocFreq(segment, term)).toBe(termPostings(segment, term).docs.length);
      }),
    );
  });
});
