/**
 * The text analyzer for lexical (BM25) indexing and querying; documents and queries must use the same
 * options.
 *
 * Each distinct token's term is memoised per option combination (bounded; cleared when full).
 *
 * Pipeline:
 * 1. Lowercase, then fold to ASCII where a letter has a base form: NFKD, combining marks removed, and
 *    a few letters with no decomposition mapped (ß→ss, æ→ae, ø→o, œ→oe, ł→l, đ→d, ð→d, þ→th, ı→i).
 *    NFKD also unfolds ligatures ("ﬁ"→"fi") and full-width forms.
 * 2. Tokens are runs of Unicode letters and digits. Internal apostrophes stay in a token ("don't",
 *    "o'neil"); hyphens, slashes and other punctuation split ("covid-19" → "covid", "19"; like
 *    Lucene's StandardTokenizer, so results compare with Anserini's BM25). Digit groups joined by '.'
 *    stay one token ("3.5", "1.2.3"). Han, Hiragana and Katakana characters are one token each.
 *    Tokens longer than `MAX_TERM_LENGTH` (hashes, base64) are dropped.
 * 3. Stopwords (optional): the Snowball English list, checked before and after removing a possessive
 *    "'s"; then apostrophes are removed ("o'neil" → "oneil").
 * 4. Stemming (optional): Porter2 (Snowball English) via `wink-porter2-stemmer`; tokens with
 *    anything but a-z are kept as they are ("2019", "p53", "il6", Greek or Cyrillic words).
 */
import porter2 from 'wink-porter2-stemmer';
import { ENGLISH_STOPWORDS } from './stopwords';

/** Switches of the analyzer; both default to true. */
export interface AnalyzerOptions {
  /** Porter2-stem tokens without digits. */
  stem?: boolean;
  /** Drop English stopwords. */
  stopwords?: boolean;
}

/** The options with their defaults filled in, as a segment records them. */
export type ResolvedAnalyzerOptions = Required<AnalyzerOptions>;

/** Default analyzer options: stemming and stopword removal on. */
export const DEFAULT_ANALYZER_OPTIONS: Readonly<ResolvedAnalyzerOptions> = Object.freeze({
  stem: true,
  stopwords: true,
});

/** Tokens longer than this many characters are dropped. */
export const MAX_TERM_LENGTH = 64;

const TOKEN = /\p{N}+(?:\.\p{N}+)+|[\p{L}\p{N}]+(?:'[\p{L}\p{N}]+)*/gu;
const NON_ASCII = /[^\x00-\x7f]/;
const COMBINING_MARK = /\p{M}/gu;
const CJK_CHARACTER = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/gu;
const HAS_CJK = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/u;
const NOT_ASCII_LETTER = /[^a-z]/;
const UNDECOMPOSED_LETTERS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  ø: 'o',
  œ: 'oe',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ŀ: 'l',
  ħ: 'h',
};
const UNDECOMPOSED = new RegExp(`[${Object.keys(UNDECOMPOSED_LETTERS).join('')}]`, 'g');
const TERM_CACHE_LIMIT = 200_000;
const termCaches = new Map<string, Map<string, string | null>>();

/** Fills in the defaults of `options`. */
export function resolveAnalyzerOptions(options: AnalyzerOptions = {}): ResolvedAnalyzerOptions {
  return {
    stem: options.stem ?? DEFAULT_ANALYZER_OPTIONS.stem,
    stopwords: options.stopwords ?? DEFAULT_ANALYZER_OPTIONS.stopwords,
  };
}

/** The terms of `text` in order, duplicates kept (term frequency counts them). */
export function analyze(text: string, options: AnalyzerOptions = {}): string[] {
  const resolved = resolveAnalyzerOptions(options);
  const cache = termCacheFor(resolved);
  const terms: string[] = [];
  for (const token of foldToAscii(text.toLowerCase()).match(TOKEN) ?? []) {
    let term = cache.get(token);
    if (term === undefined) {
      term = tokenToTerm(token, resolved);
      if (cache.size >= TERM_CACHE_LIMIT) cache.clear();
      cache.set(token, term);
    }
    if (term !== null) terms.push(term);
  }
  return terms;
}

/** The term a token becomes under `options`, or null if it is dropped. */
function tokenToTerm(token: string, options: ResolvedAnalyzerOptions): string | null {
  if (token.length > MAX_TERM_LENGTH) return null;
  const term = normalizeToken(token, options.stopwords);
  if (term === undefined) return null;
  return options.stem ? stemTerm(term) : term;
}

/** Memo of token → term per option combination: most tokens repeat, so each is analyzed once. */
function termCacheFor(options: ResolvedAnalyzerOptions): Map<string, string | null> {
  const key = `${options.stem ? 's' : '-'}${options.stopwords ? 'w' : '-'}`;
  let cache = termCaches.get(key);
  if (!cache) {
    cache = new Map();
    termCaches.set(key, cache);
  }
  return cache;
}

/**
 * ASCII folding of lowercase text: decomposes accented letters and drops their marks, maps letters
 * with no decomposition, turns typographic apostrophes into ASCII ones and spaces out CJK characters.
 */
export function foldToAscii(lowercase: string): string {
  if (!NON_ASCII.test(lowercase)) return lowercase;
  let folded = lowercase
    .normalize('NFKD')
    .replace(COMBINING_MARK, '')
    .replace(UNDECOMPOSED, (letter) => UNDECOMPOSED_LETTERS[letter] ?? letter)
    .replace(/[\u2019\u02bc]/g, "'");
  if (HAS_CJK.test(folded)) folded = folded.replace(CJK_CHARACTER, ' $& ');
  return folded;
}

/** Applies the stopword list and apostrophe rules; undefined if the token is dropped. */
function normalizeToken(token: string, stopwords: boolean): string | undefined {
  if (stopwords && ENGLISH_STOPWORDS.has(token)) return undefined;
  if (!token.includes("'")) return token;
  const base = token.endsWith("'s") ? token.slice(0, -2) : token;
  if (stopwords && ENGLISH_STOPWORDS.has(base)) return undefined;
  return base.replaceAll("'", '');
}

/** Porter2 stem of a lowercase token; tokens with anything but a-z (digits, other scripts) are kept. */
export function stemTerm(token: string): string {
  if (token.length < 3 || NOT_ASCII_LETTER.test(token)) return token;
  return porter2(token);
}
