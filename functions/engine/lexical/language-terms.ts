/**
 * Analysis for the languages other than English (English keeps its own pipeline in analyzer.ts).
 *
 * German, French, Spanish, Italian, Portuguese and Dutch (`wordTerms`):
 * 1. Lowercase (NFC), typographic apostrophes made ASCII, CJK characters spaced out; tokens as in
 *    English (runs of letters and digits, internal apostrophes kept, digit groups joined by '.').
 * 2. Elision: in French and Italian a token's part up to its last apostrophe goes ("l'homme" → "homme",
 *    "dell'arte" → "arte"); in the others apostrophes are removed.
 * 3. Stopwords (optional): the language's Snowball list (`@orama/stopwords`; Spanish: spanish-stopwords.ts).
 * 4. Stemming (optional): the language's Snowball stemmer from `@orama/stemmers`, on the unfolded word
 *    (the stemmers read accents: "häuser" → "haus", "chevaux" → "cheval"); tokens with digits are kept.
 * 5. ASCII folding of the term, as in English ("résumé" → "resume"), so names match across languages.
 *
 * Chinese and Japanese (`cjkTerms`): words from `Intl.Segmenter` over the NFKC text; each CJK word is a
 * term (particles and other stopwords dropped), followed by its characters when it has more than one
 * ("東京タワー" → "東京タワー", "東", "京", "タ", "ワ", "ー"): the word rewards an exact match, the characters
 * find a part of a compound or a word the segmenter cut otherwise in the query (bench:multilingual: on
 * Chinese and Japanese, words and characters beat characters alone and words with bigrams). Runs of
 * other characters (Latin words, numbers) between them are analyzed as English.
 */
import { stemmer as dutchStemmer } from '@orama/stemmers/dutch';
import { stemmer as frenchStemmer } from '@orama/stemmers/french';
import { stemmer as germanStemmer } from '@orama/stemmers/german';
import { stemmer as italianStemmer } from '@orama/stemmers/italian';
import { stemmer as portugueseStemmer } from '@orama/stemmers/portuguese';
import { stemmer as spanishStemmer } from '@orama/stemmers/spanish';
import { stopwords as dutchStopwords } from '@orama/stopwords/dutch';
import { stopwords as frenchStopwords } from '@orama/stopwords/french';
import { stopwords as germanStopwords } from '@orama/stopwords/german';
import { stopwords as italianStopwords } from '@orama/stopwords/italian';
import { stopwords as portugueseStopwords } from '@orama/stopwords/portuguese';
import type { Language } from './language';
import { SPANISH_STOPWORDS } from './spanish-stopwords';

/** The switches of the analyzer that apply to every language. */
export interface TermSwitches {
  readonly stem: boolean;
  readonly stopwords: boolean;
}

/** A language analyzed word by word (Latin script). */
export type WordLanguage = Exclude<Language, 'en' | 'zh' | 'ja'>;

interface WordRules {
  readonly stem: (word: string) => string;
  readonly stopwords: ReadonlySet<string>;
  /** Drop an elided article or preposition before an apostrophe ("l'", "dell'"). */
  readonly elision: boolean;
}

const WORD_RULES: Readonly<Record<WordLanguage, WordRules>> = {
  de: { stem: germanStemmer, stopwords: new Set(germanStopwords), elision: false },
  fr: { stem: frenchStemmer, stopwords: new Set(frenchStopwords), elision: true },
  es: { stem: spanishStemmer, stopwords: SPANISH_STOPWORDS, elision: false },
  it: { stem: italianStemmer, stopwords: new Set(italianStopwords), elision: true },
  pt: { stem: portugueseStemmer, stopwords: new Set(portugueseStopwords), elision: false },
  nl: { stem: dutchStemmer, stopwords: new Set(dutchStopwords), elision: false },
};

/** Chinese and Japanese function words and particles that carry no search meaning alone. */
const CJK_STOPWORDS: ReadonlySet<string> = new Set(
  (
    '的 了 是 在 和 与 及 或 也 都 就 而 之 其 这 那 有 为 以 于 对 把 被 个 们 着 过 吗 呢 吧 啊 ' +
    'は が を に で と の も へ や か な ね よ から まで より です ます でした ました ある いる する した し て た だ この その あの こと もの'
  ).split(' '),
);

const TOKEN = /\p{N}+(?:\.\p{N}+)+|[\p{L}\p{N}]+(?:'[\p{L}\p{N}]+)*/gu;
const CJK_CHARACTER = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/gu;
const HAS_CJK = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/u;
const LETTERS_ONLY = /^\p{L}+$/u;
const TYPOGRAPHIC_APOSTROPHE = /[\u2019\u02bc]/g;
const MIN_STEM_LENGTH = 3;

/** The stopword list of `language` (from `@orama/stopwords`). */
export function wordLanguageStopwords(language: WordLanguage): ReadonlySet<string> {
  return WORD_RULES[language].stopwords;
}

/** Whether lowercase `word` is a stopword of `language` (its `@orama/stopwords` list). */
export function isWordLanguageStopword(language: WordLanguage, word: string): boolean {
  return WORD_RULES[language].stopwords.has(word);
}

/** The tokens of `text` (lowercased here) in a word language, before stopwords and stemming. */
export function wordTokens(text: string): string[] {
  let lowercase = text.toLowerCase().normalize('NFC').replace(TYPOGRAPHIC_APOSTROPHE, "'");
  if (HAS_CJK.test(lowercase)) lowercase = lowercase.replace(CJK_CHARACTER, ' $& ');
  return lowercase.match(TOKEN) ?? [];
}
/**
 * The term of one lowercase token in a word language, or null when it is dropped; `fold` is the
 * analyzer's ASCII folding and `maxLength` its longest term.
 */
export function wordTerm(
  token: string,
  language: WordLanguage,
  switches: TermSwitches,
  fold: (text: string) => string,
  maxLength: number,
): string | null {
  if (token.length > maxLength) return null;
  const rules = WORD_RULES[language];
  const apostrophe = token.lastIndexOf("'");
  const word = apostrophe < 0 ? token : rules.elision ? token.slice(apostrophe + 1) : token.replaceAll("'", '');
  if (word.length === 0 || (switches.stopwords && rules.stopwords.has(word))) return null;
  const stemmed = switches.stem && word.length >= MIN_STEM_LENGTH && LETTERS_ONLY.test(word) ? rules.stem(word) : word;
  return HAS_CJK.test(stemmed) ? stemmed : fold(stemmed);
}

/** The terms of `text` in Chinese or Japanese; runs of other characters go through `english`. */
export function cjkTerms(text: string, language: 'zh' | 'ja', switches: TermSwitches, english: (text: string) => string[]): string[] {
  const terms: string[] = [];
  let other = '';
  for (const { segment, isWordLike } of segmenterFor(language).segment(text.normalize('NFKC').toLowerCase())) {
    if (!HAS_CJK.test(segment)) {
      other += segment;
      continue;
    }
    if (other.trim()) terms.push(...english(other));
    other = ' ';
    if (!isWordLike || (switches.stopwords && CJK_STOPWORDS.has(segment))) continue;
    terms.push(...cjkWordTerms(segment));
  }
  if (other.trim()) terms.push(...english(other));
  return terms;
}

/** A CJK word and, when it has two or more characters, each of its characters. */
function cjkWordTerms(word: string): string[] {
  const characters = [...word];
  return characters.length < 2 ? [word] : [word, ...characters];
}

const segmenters = new Map<string, Intl.Segmenter>();

function segmenterFor(language: 'zh' | 'ja'): Intl.Segmenter {
  let segmenter = segmenters.get(language);
  if (!segmenter) {
    segmenter = new Intl.Segmenter(language, { granularity: 'word' });
    segmenters.set(language, segmenter);
  }
  return segmenter;
}
