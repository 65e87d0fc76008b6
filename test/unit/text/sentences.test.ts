/** Rule-based sentence splitting: abbreviations, numbers, quotes, lines and lists, offsets, speed. */
import { fc } from '../../support/property-seed';
import { describe, expect, it } from 'vitest';
import { splitSentences } from '../../../functions/engine/text/sentences';

const texts = (input: string): string[] => splitSentences(input).map((sentence) => sentence.text);

describe('splitSentences', () => {
  it('splits plain sentences on . ! ?', () => {
    expect(texts('It rained. We stayed in! Did you? Yes.')).toEqual(['It rained.', 'We stayed in!', 'Did you?', 'Yes.']);
  });

  it('returns nothing for empty or blank text', () => {
    expect(splitSentences('')).toEqual([]);
    expect(splitSentences(' \n\t \n')).toEqual([]);
  });

  it('keeps titles, e.g./i.e., figure and number abbreviations inside the sentence', () => {
    expect(texts('Dr. Smith met Prof. Jones, e.g. at lunch. See Fig. 2 and No. 5 on p. 12. Done.')).toEqual([
      'Dr. Smith met Prof. Jones, e.g. at lunch.',
      'See Fig. 2 and No. 5 on p. 12.',
      'Done.',
    ]);
    expect(texts('Use a solvent, i.e. water. It works.')).toEqual(['Use a solvent, i.e. water.', 'It works.']);
  });

  it('handles dotted acronyms, initials and et al. by the following word', () => {
    expect(texts('The U.S. Army arrived. It left the U.S. The end.')).toEqual(['The U.S. Army arrived.', 'It left the U.S.', 'The end.']);
    expect(texts('J. R. R. Tolkien wrote it. Smith et al. Nature showed it. Smith et al. The end.')).toEqual([
      'J. R. R. Tolkien wrote it.',
      'Smith et al. Nature showed it.',
      'Smith et al.',
      'The end.',
    ]);
    expect(texts('We met at 5 p.m. The talk began.')).toEqual(['We met at 5 p.m.', 'The talk began.']);
  });

  it('does not split decimals, versions, URLs or e-mail addresses', () => {
    expect(texts('Growth was 3.5% in v2.1.3 per example.com/a.b and a@b.org today. Next.')).toEqual([
      'Growth was 3.5% in v2.1.3 per example.com/a.b and a@b.org today.',
      'Next.',
    ]);
  });

  it('treats ellipses and ?! runs as one terminator', () => {
    expect(texts('Wait... Then what?! Nothing… Really.')).toEqual(['Wait...', 'Then what?!', 'Nothing…', 'Really.']);
    expect(texts('He paused... and went on.')).toEqual(['He paused... and went on.']);
  });

  it('keeps closing quotes and brackets with their sentence', () => {
    expect(texts('She said "Stop." Then he left. (It was late.) "Why?" he asked. ‘Fine.’ Ok.')).toEqual([
      'She said "Stop."',
      'Then he left.',
      '(It was late.)',
      '"Why?" he asked.',
      '‘Fine.’',
      'Ok.',
    ]);
  });

  it('does not split before a lowercase word', () => {
    expect(texts('The value was approx. ten. the end')).toEqual(['The value was approx. ten. the end']);
  });

  it('splits on blank lines but joins soft-wrapped lines', () => {
    expect(texts('A heading\n\nThe first line\ncontinues here. Second.\n\nLast paragraph')).toEqual([
      'A heading',
      'The first line\ncontinues here.',
      'Second.',
      'Last paragraph',
    ]);
  });

  it('splits bullet and numbered list items and lines ending with a colon', () => {
    const list = 'Ingredients:\n- flour\n* sugar\n• eggs\n1. mix\n2) bake\n(3) eat\na) rest\n## Notes\ndone';
    expect(texts(list)).toEqual([
      'Ingredients:',
      '- flour',
      '* sugar',
      '• eggs',
      '1. mix',
      '2) bake',
      '(3) eat',
      'a) rest',
      '## Notes',
      'done',
    ]);
  });

  it('handles CRLF line endings and CJK full stops', () => {
    expect(texts('One.\r\n\r\nTwo.\r\nThree')).toEqual(['One.', 'Two.', 'Three']);
    expect(texts('今日は晴れです。明日は雨！本当？')).toEqual(['今日は晴れです。', '明日は雨！', '本当？']);
  });

  it('gives offsets into the original text, trimmed and in order', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'B', ' ', '.', '!', '\n', '"', '1', 'é', 'Dr') }), (text) => {
        let previousEnd = 0;
        for (const sentence of splitSentences(text)) {
          expect(sentence.text).toBe(text.slice(sentence.start, sentence.end));
          expect(sentence.text.trim()).toBe(sentence.text);
          expect(sentence.text.length).toBeGreaterThan(0);
          expect(sentence.start).toBeGreaterThanOrEqual(previousEnd);
          expect(text.slice(previousEnd, sentence.start).trim()).toBe('');
          previousEnd = sentence.end;
        }
        expect(text.slice(previousEnd).trim()).toBe('');
      }),
      { numRuns: 300 },
    );
  });

  // a hang detector, not a speed measure (about 0.1 s on a quiet machine; speed belongs to bench/): a
  // pattern that backtracks catastrophically on these hard cases would take minutes, not seconds
  it('splits ~5,000 abstracts (~7.5 MB) with their hard cases, without catastrophic backtracking', () => {
    const abstracts = syntheticAbstracts(5000, 1500);
    const started = performance.now();
    const count = abstracts.reduce((sum, abstract) => sum + splitSentences(abstract).length, 0);
    expect(count).toBeGreaterThan(abstracts.length * 10);
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});

/** Deterministic abstract-like texts of about `length` characters, with the splitter's hard cases. */
function syntheticAbstracts(count: number, length: number): string[] {
  const pieces = [
    'Background: IL-6 levels rose by 3.5% (p < 0.05) in the U.S. cohort.',
    'Dr. Smith et al. reported e.g. higher risk in Fig. 2.',
    'Why does this matter?',
    'Patients were followed for 12 months... Results were mixed.',
    '"Treatment helped," the authors wrote.',
    'We conclude that the intervention is safe.\n',
  ];
  const abstracts: string[] = [];
  for (let index = 0; index < count; index++) {
    let text = `Title number ${index}\n\n`;
    for (let piece = index; text.length < length; piece += 7) text += `${pieces[piece % pieces.length]} `;
    abstracts.push(text);
  }
  return abstracts;
}
