/**
 * String similarity for entity resolution: Jaro-Winkler and trigram Dice over normalised keys.
 */

/** Jaro similarity of two strings, 0..1. */
function jaro(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  const aMatched = new Uint8Array(a.length);
  const bMatched = new Uint8Array(b.length);
  const matches = matchWithinWindow(a, b, aMatched, bMatched);
  if (matches === 0) return 0;
  const transpositions = countTranspositions(a, b, aMatched, bMatched);
  return (matches / a.length + matches / b.length + (matches - transpositions / 2) / matches) / 3;
}

/** Pairs each character of `a` with the first unmatched equal one of `b` within the Jaro window; the pairs made. */
function matchWithinWindow(a: string, b: string, aMatched: Uint8Array, bMatched: Uint8Array): number {
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  let matches = 0;
  for (let i = 0; i < a.length; i++) {
    const from = Math.max(0, i - window);
    const to = Math.min(b.length, i + window + 1);
    for (let j = from; j < to; j++) {
      if (bMatched[j] || a.charCodeAt(i) !== b.charCodeAt(j)) continue;
      aMatched[i] = 1;
      bMatched[j] = 1;
      matches++;
      break;
    }
  }
  return matches;
}

/** Matched characters out of order (each transposition counted from both sides). */
function countTranspositions(a: string, b: string, aMatched: Uint8Array, bMatched: Uint8Array): number {
  let transpositions = 0;
  let j = 0;
  for (let i = 0; i < a.length; i++) {
    if (!aMatched[i]) continue;
    while (!bMatched[j]) j++;
    if (a.charCodeAt(i) !== b.charCodeAt(j)) transpositions++;
    j++;
  }
  return transpositions;
}

/** Jaro-Winkler similarity (prefix scale 0.1, prefix up to 4 characters), 0..1. */
export function jaroWinkler(a: string, b: string): number {
  const base = jaro(a, b);
  let prefix = 0;
  while (prefix < 4 && prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  return base + prefix * 0.1 * (1 - base);
}

/** Character trigrams of a key padded with one space each side ("ibm" → " ib", "ibm", "bm "). */
export function trigrams(key: string): string[] {
  const padded = ` ${key} `;
  const out: string[] = [];
  for (let index = 0; index + 3 <= padded.length; index++) out.push(padded.slice(index, index + 3));
  return out;
}

/** Dice coefficient of the two keys' trigram sets, 0..1. */
export function trigramDice(a: string, b: string): number {
  const left = new Set(trigrams(a));
  const right = new Set(trigrams(b));
  if (left.size + right.size === 0) return 1;
  let shared = 0;
  for (const gram of left) if (right.has(gram)) shared++;
  return (2 * shared) / (left.size + right.size);
}

const ROMAN_NUMERAL = /^(?=[mdclxvi])m{0,3}(?:c[md]|d?c{0,3})(?:x[cl]|l?x{0,3})(?:i[xv]|v?i{0,3})$/;

const NOT_NUMERALS = new Set(['mix', 'i', 'di', 'mi', 'li', 'vi', 'xi', 'mid', 'dim', 'civic', 'lid', 'mild']);

/**
 * The numbers of a key: digit runs, and Roman numerals ("apollo 11" → "11", "henry viii" → "viii",
 * "xxiii olympiad" → "xxiii"; a lone "I" only after the first word). Names that differ here are
 * different things.
 */
export function digitSignature(key: string): string {
  const words = key.split(' ');
  const isNumeral = (word: string, index: number): boolean =>
    ROMAN_NUMERAL.test(word) && (index > 0 ? word !== 'mix' : !NOT_NUMERALS.has(word));
  const romans = words.filter(isNumeral);
  return [...(key.match(/\d+/g) ?? []), ...romans].join(' ');
}
