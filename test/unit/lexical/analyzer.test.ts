/** The lexical analyzer: tokens, folding, stopwords, Porter2 stemming and the switches. */
import { describe, expect, it } from 'vitest';
import {
  analyze,
  DEFAULT_ANALYZER_OPTIONS,
  foldToAscii,
  MAX_TERM_LENGTH,
  resolveAnalyzerOptions,
  stemTerm,
} from '../../../functions/engine/lexical/analyzer';
import { ENGLISH_STOPWORDS } from '../../../functions/engine/lexical/stopwords';

const RAW = { stem: false, stopwords: false };

describe('analyze', () => {
  it('stems with Porter2 and drops stopwords by default', () => {
    expect(DEFAULT_ANALYZER_OPTIONS).toEqual({ stem: true, stopwords: true, language: 'auto' });
    expect(analyze('The runners were running quickly')).toEqual(['runner', 'run', 'quick']);
  });

  it('matches Snowball English stems for known words', () => {
    const expected: Record<string, string> = {
      running: 'run',
      generously: 'generous',
      generalization: 'general',
      skies: 'sky',
      dying: 'die',
      news: 'news',
      cats: 'cat',
      caresses: 'caress',
      ponies: 'poni',
      hopping: 'hop',
      agreed: 'agre',
      happiness: 'happi',
      relational: 'relat',
      conditional: 'condit',
      consign: 'consign',
      knightly: 'knight',
      communication: 'communic',
      arsenal: 'arsenal',
      proceed: 'proceed',
      studies: 'studi',
    };
    for (const [word, stem] of Object.entries(expected)) expect(stemTerm(word)).toBe(stem);
  });

  it('keeps tokens with digits or other scripts unstemmed', () => {
    expect(stemTerm('p53s')).toBe('p53s');
    expect(stemTerm('россия')).toBe('россия');
    expect(analyze('IL6 levels in 2019 and 3.5 mg', RAW)).toEqual(['il6', 'levels', 'in', '2019', 'and', '3.5', 'mg']);
  });

  it('splits on hyphens and punctuation, keeping numbers', () => {
    expect(analyze('COVID-19 spread; e-mail/fax: 24/7', RAW)).toEqual(['covid', '19', 'spread', 'e', 'mail', 'fax', '24', '7']);
  });

  it('folds accents, ligatures and special letters to ASCII and lowercases', () => {
    expect(analyze('Café MÜLLER naïve Straße Ærø œuvre ﬁsh Łódź', RAW)).toEqual([
      'cafe',
      'muller',
      'naive',
      'strasse',
      'aero',
      'oeuvre',
      'fish',
      'lodz',
    ]);
    expect(foldToAscii('plain ascii')).toBe('plain ascii');
  });

  it('drops possessives and apostrophes, and tells contractions from words', () => {
    expect(analyze("O'Neil's dog isn't here, we'll see; it’s well", { stem: false })).toEqual(['oneil', 'dog', 'see', 'well']);
    expect(ENGLISH_STOPWORDS.has("we'll")).toBe(true);
    expect(ENGLISH_STOPWORDS.has('well')).toBe(false);
  });

  it('makes stopwords and stemming switchable', () => {
    const text = 'The cats are running';
    expect(analyze(text, RAW)).toEqual(['the', 'cats', 'are', 'running']);
    expect(analyze(text, { stem: false })).toEqual(['cats', 'running']);
    expect(analyze(text, { stopwords: false })).toEqual(['the', 'cat', 'are', 'run']);
    expect(resolveAnalyzerOptions({ stem: false })).toEqual({ stem: false, stopwords: true, language: 'auto' });
  });

  it('makes each CJK character a token in English text and drops over-long tokens', () => {
    expect(analyze('東京タワー abc東京', { ...RAW, language: 'en' })).toEqual(['東', '京', 'タ', 'ワ', 'ー', 'abc', '東', '京']);
    expect(analyze('The tower 東京タワー is in Tokyo, the capital of Japan', RAW)).toEqual(
      'the tower 東 京 タ ワ ー is in tokyo the capital of japan'.split(' '),
    );
    const long = 'x'.repeat(MAX_TERM_LENGTH + 1);
    expect(analyze(`keep ${long} ${'y'.repeat(MAX_TERM_LENGTH)}`, RAW)).toEqual(['keep', 'y'.repeat(MAX_TERM_LENGTH)]);
  });

  it('returns nothing for text without letters or digits', () => {
    expect(analyze('')).toEqual([]);
    expect(analyze(' -- ... !!! ')).toEqual([]);
    expect(analyze('the of and')).toEqual([]);
  });

  it('is stable across calls and option orders (memoised terms)', () => {
    const text = 'Generalizations generalize generally';
    const first = analyze(text);
    analyze(text, RAW);
    expect(analyze(text)).toEqual(first);
    expect(analyze(text, RAW)).toEqual(['generalizations', 'generalize', 'generally']);
  });
});
