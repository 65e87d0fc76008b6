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
 *
 * That is the English pipeline. The `language` option picks another (language-terms.ts: German, French,
 * Spanish, Italian, Portuguese, Dutch, Chinese, Japanese); by default ('auto') each text's language is
 * detected (language.ts), and a text with no sign of another language is analyzed as English, exactly
 * as above. A query is analyzed in every language of the index it searches (`queryTermCounts`).
 */
import porter2 from 'wink-porter2-stemmer';
import { detectLanguage, isCjkLanguage, type Language } from './language';
import { cjkTerms, type WordLanguage, wordTerm, wordTokens } from './language-terms';
import { ENGLISH_STOPWORDS } from './stopwords';

/** The language setting of an analyzer: one language for every text, or 'auto' (detected per text). */
export type AnalyzerLanguage = Language | 'auto';

/** Switches of the analyzer; `stem` and `stopwords` default to true, `language` to 'auto'. */
export interface AnalyzerOptions {
  /** Stem tokens without digits (Porter2 in English, Snowball in the other Latin-script languages). */
  stem?: boolean;
  /** Drop the language's stopwords. */
  stopwords?: boolean;
  /** The language of the texts; 'auto' detects it per text. */
  language?: AnalyzerLanguage;
}

/** The options with their defaults filled in, as a segment records them. */
export type ResolvedAnalyzerOptions = Required<AnalyzerOptions>;

/** Default analyzer options: stemming and stopword removal on, language detected per text. */
export const DEFAULT_ANALYZER_OPTIONS: Readonly<ResolvedAnalyzerOptions> = Object.freeze({
  stem: true,
  stopwords: true,
  language: 'auto',
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
    language: options.language ?? DEFAULT_ANALYZER_OPTIONS.language,
  };
}

/** The terms of `text` in order, duplicates kept (term frequency counts them). */
export function analyze(text: string, options: AnalyzerOptions = {}): string[] {
  const resolved = resolveAnalyzerOptions(options);
  return analyzeIn(text, languageOf(text, resolved.language), resolved);
}

/** The language `setting` gives `text`: itself, or the detected one for 'auto'. */
function languageOf(text: string, setting: AnalyzerLanguage): Language {
  return setting === 'auto' ? detectLanguage(text) : setting;
}

/** The terms of `text` analyzed as `language`. */
export function analyzeIn(text: string, language: Language, options: AnalyzerOptions = {}): string[] {
  const resolved = resolveAnalyzerOptions(options);
  if (language === 'en') return englishTerms(text, resolved);
  if (isCjkLanguage(language)) return cjkTerms(text, language, resolved, (run) => englishTerms(run, resolved));
  return wordLanguageTerms(text, language, resolved);
}

/**
 * The distinct terms of `query` with their counts, in first-seen order, for an index whose texts are
 * in `languages`: the query is analyzed in each of them (or in the one language `options` sets), and a
 * term counts as often as the analysis that gives it most often. A query is too short to tell its
 * language reliably ("Häuser"), so it is read in every language it could be meant to match; an
 * index of English texts alone reads it as English only, as before languages existed.
 */
export function queryTermCounts(query: string, options: AnalyzerOptions, languages: readonly Language[]): Map<string, number> {
  const resolved = resolveAnalyzerOptions(options);
  const counts = new Map<string, number>();
  for (const language of readingLanguages(resolved, languages)) {
    const own = new Map<string, number>();
    for (const term of analyzeIn(query, language, resolved)) own.set(term, (own.get(term) ?? 0) + 1);
    for (const [term, count] of own) counts.set(term, Math.max(counts.get(term) ?? 0, count));
  }
  return counts;
}

/**
 * The terms of a short text compared with an index's query terms (a sentence, a fact): like
 * the query, it is read in each of the index's `languages` (one language: exactly its analysis), since
 * a sentence is as hard to place as a query.
 */
export function analyzeInEach(text: string, options: AnalyzerOptions, languages: readonly Language[]): string[] {
  const resolved = resolveAnalyzerOptions(options);
  const readAs = readingLanguages(resolved, languages);
  if (readAs.length === 1) return analyzeIn(text, readAs[0] ?? 'en', resolved);
  // the word languages split a text into the same tokens: split once, looked up in each; an ASCII text
  // is split so by English too (nothing to fold or normalise), so then English reads the same tokens
  const ascii = !NON_ASCII.test(text);
  let tokens: string[] | undefined;
  const terms: string[] = [];
  for (const language of readAs) {
    if (language === 'en' && ascii) {
      tokens ??= text.toLowerCase().match(TOKEN) ?? [];
      englishTermsOf(tokens, resolved, terms);
    } else if (language === 'en' || isCjkLanguage(language)) {
      for (const term of analyzeIn(text, language, resolved)) terms.push(term);
    } else {
      tokens ??= wordTokens(text);
      wordTermsOf(tokens, language, resolved, terms);
    }
  }
  return terms;
}

/**
 * The terms of a text in one of an index's `languages`, as a term sequence (title links match titles
 * in chunk texts term by term): the index's only language, else the text's detected one if the index
 * holds it, else the index's first.
 */
export function analyzeInOne(text: string, options: AnalyzerOptions, languages: readonly Language[]): string[] {
  const resolved = resolveAnalyzerOptions(options);
  const readAs = readingLanguages(resolved, languages);
  const only = readAs.length === 1 ? readAs[0] : undefined;
  const detected = only ?? detectLanguage(text);
  return analyzeIn(text, readAs.includes(detected) ? detected : (readAs[0] ?? 'en'), resolved);
}

/** The languages a query or short text is read in: the set one, or the index's (English for none). */
function readingLanguages(resolved: ResolvedAnalyzerOptions, languages: readonly Language[]): readonly Language[] {
  if (resolved.language !== 'auto') return [resolved.language];
  return languages.length > 0 ? languages : ['en'];
}

/** The English pipeline (see the module comment). */
function englishTerms(text: string, resolved: ResolvedAnalyzerOptions): string[] {
  return englishTermsOf(foldToAscii(text.toLowerCase()).match(TOKEN) ?? [], resolved, []);
}

/** Appends the English terms of `tokens` (of the folded lowercase text) to `terms`; answers `terms`. */
function englishTermsOf(tokens: readonly string[], resolved: ResolvedAnalyzerOptions, terms: string[]): string[] {
  if (!resolved.stem && !resolved.stopwords) {
    // no stemming and no stopwords: a token's term is itself, apostrophes aside; cheaper than the memo
    for (const token of tokens) {
      const term = tokenToTerm(token, resolved);
      if (term !== null) terms.push(term);
    }
    return terms;
  }
  const cache = termCacheFor(resolved, 'en');
  for (const token of tokens) {
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

/** The terms of `text` in a Latin-script language other than English (see language-terms.ts). */
function wordLanguageTerms(text: string, language: WordLanguage, resolved: ResolvedAnalyzerOptions): string[] {
  return wordTermsOf(wordTokens(text), language, resolved, []);
}

/** Appends the terms of `tokens` (a text's `wordTokens`) in a word language to `terms`; answers `terms`. */
function wordTermsOf(tokens: readonly string[], language: WordLanguage, resolved: ResolvedAnalyzerOptions, terms: string[]): string[] {
  const cache = termCacheFor(resolved, language);
  for (const token of tokens) {
    let term = cache.get(token);
    if (term === undefined) {
      term = wordTerm(token, language, resolved, foldToAscii, MAX_TERM_LENGTH);
      if (cache.size >= TERM_CACHE_LIMIT) cache.clear();
      cache.set(token, term);
    }
    if (term !== null) terms.push(term);
  }
  return terms;
}

/** Memo of token → term per language and switches: most tokens repeat, so each is analyzed once. */
function termCacheFor(options: ResolvedAnalyzerOptions, language: Language): Map<string, string | null> {
  const key = `${language === 'en' ? '' : language}${options.stem ? 's' : '-'}${options.stopwords ? 'w' : '-'}`;
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
