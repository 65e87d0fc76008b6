/**
 * Normalisation of entity names into matching keys.
 *
 * A key is lowercase ASCII-folded words joined by single spaces: diacritics removed (NFKD), a few
 * undecomposable letters mapped (ß→ss, ø→o, …), possessive "'s" dropped, other punctuation turned into
 * spaces (apostrophes inside a word are removed: "O'Neil" → "oneil"; a dot between digits stays:
 * "2.1"), " & " spelled "and", a leading article ("the", "a", "an") dropped, and a leading "St"/"Mt"/"Ft" spelled out
 * ("St. Petersburg" → "saint petersburg"). `singularKey` also makes the last word
 * singular, for common-noun phrases ("memory leaks" → "memory leak"); names keep their plural
 * ("United States").
 */

const COMBINING_MARK = /\p{M}/gu;
const UNDECOMPOSED: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  ø: 'o',
  œ: 'oe',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
};
const UNDECOMPOSED_PATTERN = new RegExp(`[${Object.keys(UNDECOMPOSED).join('')}]`, 'g');
const POSSESSIVE = /(\p{L})['’]s\b/gu;
const TRAILING_APOSTROPHE = /(\p{L}s)['’](?=\s|$)/gu;
const INNER_APOSTROPHE = /(\p{L})['’](\p{L})/gu;
const DECIMAL_DOT = /(\p{N})\.(?=\p{N})/gu;
const NOT_WORD = /[^\p{L}\p{N}\u0001]+/gu;
const LEADING_ARTICLE = /^(?:the|a|an) /;
const LEADING_ABBREVIATIONS: Readonly<Record<string, string>> = { st: 'saint', mt: 'mount', ft: 'fort' };
const LEADING_ABBREVIATION = /^(st|mt|ft) (?=\p{L})/u;
const DOTTED_INITIALS = /(?<![\p{L}\p{N}])(?:\p{L}\.){2,}/gu;

/** Lowercase, fold diacritics to ASCII where a base letter exists. */
function foldText(text: string): string {
  const lower = text.toLowerCase();
  // eslint-disable-next-line no-control-regex
  if (!/[^\x00-\x7f]/.test(lower)) return lower;
  return lower
    .normalize('NFKD')
    .replace(COMBINING_MARK, '')
    .replace(UNDECOMPOSED_PATTERN, (letter) => UNDECOMPOSED[letter] ?? letter);
}

/** The matching key of a name (see the module comment); '' when nothing word-like is left. */
export function normalizeKey(name: string): string {
  const folded = foldText(name)
    .replace(/ & /g, ' and ')
    .replace(DOTTED_INITIALS, (initials) => initials.replace(/\./g, ''))
    .replace(POSSESSIVE, '$1')
    .replace(TRAILING_APOSTROPHE, '$1')
    .replace(INNER_APOSTROPHE, '$1$2')
    .replace(DECIMAL_DOT, '$1\u0001');
  const spaced = folded
    .replace(NOT_WORD, ' ')
    .trim()
    .replace(/\u0001/g, '.');
  return spaced.replace(LEADING_ARTICLE, '').replace(LEADING_ABBREVIATION, (_, word: string) => `${LEADING_ABBREVIATIONS[word] ?? word} `);
}

/** `normalizeKey` with the last word made singular (for common-noun phrases). */
export function singularKey(name: string): string {
  const key = normalizeKey(name);
  const space = key.lastIndexOf(' ');
  return key.slice(0, space + 1) + singularWord(key.slice(space + 1));
}

const INVARIANT_PLURALS = new Set(['series', 'species', 'news', 'physics', 'mathematics', 'politics', 'economics']);

/** English singular of a lowercase word by suffix rules; words that do not look plural are kept. */
export function singularWord(word: string): string {
  if (word.length <= 3 || INVARIANT_PLURALS.has(word) || /\d/.test(word)) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(?:ches|shes|sses|xes|zzes)$/.test(word)) return word.slice(0, -2);
  if (/(?:ss|us|is|os|as)$/.test(word)) return word;
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

/** The words of a key. */
export function keyWords(key: string): string[] {
  return key === '' ? [] : key.split(' ');
}

const ACRONYM_SKIP = new Set(['of', 'the', 'and', 'for', 'in', 'on', 'at', 'to', 'a', 'an', 'de', 'du', 'des', 'la', 'le', '&']);

/** Initials of a key's content words ("world health organization" → "who"); '' under two words. */
export function acronymOf(key: string): string {
  const words = keyWords(key).filter((word) => !ACRONYM_SKIP.has(word));
  if (words.length < 2) return '';
  return words.map((word) => word[0] ?? '').join('');
}

/** Whether a surface form looks like an acronym: 2-8 capitals (digits and '&' allowed after the first). */
export function looksLikeAcronym(surface: string): boolean {
  const compact = surface.replace(/\./g, '');
  return /^[A-Z][A-Z0-9&]{1,7}s?$/.test(compact) && /[A-Z].*[A-Z]/.test(compact);
}
