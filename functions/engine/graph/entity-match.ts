/**
 * Whether two name forms (a new mention and an alias of a node) denote the same thing, and why.
 * The resolver (`resolve.ts`) asks this of the few candidates its indexes return; calibration
 * (`calibrate.ts`) asks it of labelled pairs to measure the thresholds.
 *
 * Rules, first that holds wins; names whose digits differ never match ("Apollo 11" / "Apollo 13"):
 * - exact: same key;
 * - acronym: one is acronym-shaped and equals the other's initials ("WHO" / "World Health Organization");
 * - abbreviation (names): the shorter is an in-order subset of the longer's words with the same last
 *   word ("Obama" / "Barack Obama"; not after "of": "Copenhagen" / "University of Copenhagen"; not
 *   after a place modifier: "Korea" / "North Korea"; a lone last word only for people or rare
 *   words: not "Japan" / "Maiden Japan"), or
 *   the same first word with only organisation heads after it ("Harvard" / "Harvard University");
 * - fuzzy (names): Jaro-Winkler and trigram Dice at or above their thresholds, same word count, word
 *   by word (keys of 5+ characters; not a derived word, "Chile" / "Chilean", nor contrasting words,
 *   "Southeast" / "Southwest"), unless word vectors veto it (frequent, unlike words);
 * - vector (phrases): same head word and the differing modifiers' cosine at or above its threshold
 *   ("movie director" / "film director"; never contrasting words: "first" / "second", "northern" /
 *   "southern", "summer" / "winter").
 * Numbers include Roman numerals after the first word ("Henry VII" / "Henry VIII").
 */
import { acronymOf, keyWords } from './normalize';
import { digitSignature, jaroWinkler, trigramDice } from './similarity';
import { dot, phraseVector, type WordVectors } from './word-vector-typing';

export type MentionKind = 'name' | 'phrase' | 'value';

/** A name as matching sees it. */
export interface NameForm {
  readonly key: string;
  readonly kind: MentionKind;
  /** Written like an acronym ("WHO", "U.S."). */
  readonly acronymShaped: boolean;
  /** Its ontology type, when known. */
  readonly type?: string;
}

export interface MatchThresholds {
  readonly jaroWinkler: number;
  readonly trigramDice: number;
  readonly vectorCosine: number;
}

/**
 * Chosen from the precision/recall table printed by `npx tsx bench/graph.ts` (see calibrate.ts), on
 * labelled pairs that include the look-alikes the MuSiQue corpus produced: per axis, the threshold with
 * the best F1 at precision ≥ 0.95. Word vectors put siblings ("comedy" / "drama", "older" / "younger")
 * as close as synonyms ("nuclear" / "atomic"), so the vector rule only takes near-identical modifiers.
 */
export const DEFAULT_MATCH_THRESHOLDS: Readonly<MatchThresholds> = Object.freeze({
  jaroWinkler: 0.92,
  trigramDice: 0.6,
  vectorCosine: 0.9,
});

export interface MatchContext {
  readonly thresholds: MatchThresholds;
  readonly vectors?: WordVectors;
  /** Words that end organisation names ("university", "corporation"): "Harvard" / "Harvard University". */
  readonly organizationHeads: ReadonlySet<string>;
  /** Types of people ("person", "author", "customer"): a lone surname may stand for them. */
  readonly personTypes: ReadonlySet<string>;
  /** Whether a word can be a surname on its own (see `createSurnameTest`); any word when absent. */
  readonly isSurnameLike?: (word: string) => boolean;
}

export type MatchReason = 'exact' | 'acronym' | 'abbreviation' | 'fuzzy' | 'vector';

const MIN_FUZZY_LENGTH = 5;
/** Word-level floor inside multi-word fuzzy matches. */
const WORD_JARO_WINKLER = 0.9;
/** "Korea" is not "North Korea", "York" not "New York". */
const PLACE_MODIFIERS = new Set([
  'new',
  'north',
  'south',
  'east',
  'west',
  'northern',
  'southern',
  'eastern',
  'western',
  'upper',
  'lower',
  'great',
  'greater',
  'little',
  'central',
  'old',
]);

/** Why `a` and `b` are one entity, or undefined when they are not. */
export function matchReason(a: NameForm, b: NameForm, context: MatchContext): MatchReason | undefined {
  if (a.key === b.key) return 'exact';
  if (a.kind === 'value' || b.kind === 'value' || a.kind !== b.kind) return undefined;
  if (isAcronymOf(a, b) || isAcronymOf(b, a)) return 'acronym';
  if (digitSignature(a.key) !== digitSignature(b.key)) return undefined;
  if (a.kind === 'name' && (abbreviates(a, b, context) || abbreviates(b, a, context))) return 'abbreviation';
  if (a.kind === 'name' && isFuzzyMatch(a.key, b.key, context.thresholds) && !vectorsDisagree(a.key, b.key, context)) return 'fuzzy';
  if (a.kind === 'phrase' && isVectorMatch(a.key, b.key, context)) return 'vector';
  return undefined;
}

/** `short` is acronym-shaped and the initials of `long`. */
function isAcronymOf(short: NameForm, long: NameForm): boolean {
  if (!short.acronymShaped || long.acronymShaped) return false;
  const initials = acronymOf(long.key);
  return initials !== '' && (initials === short.key || `${initials}s` === short.key);
}

/** `short` abbreviates `long` (see the module comment). */
function abbreviates(short: NameForm, long: NameForm, context: MatchContext): boolean {
  const shortWords = keyWords(short.key);
  const longWords = keyWords(long.key);
  if (shortWords.length === 0 || shortWords.length >= longWords.length || short.acronymShaped) return false;
  if (!isSubsequence(shortWords, longWords)) return false;
  const lastWord = shortWords[shortWords.length - 1] ?? '';
  const sameLast = lastWord === longWords[longWords.length - 1];
  if (sameLast && !longWords.includes('of') && !PLACE_MODIFIERS.has(longWords[0] ?? '') && mayStandAlone(short, long, context)) return true;
  const rest = longWords.slice(shortWords.length);
  return shortWords[0] === longWords[0] && isPrefix(shortWords, longWords) && rest.every((word) => context.organizationHeads.has(word));
}

/** Frequency rank from which a word counts as rare (a surname, not "Ridge" or "Japan"). */
const RARE_RANK = 20_000;

/**
 * A last word may stand for the whole name when either form is typed as a person and the word can be
 * a surname ("Obama" / "Barack Obama"; not "Evolution" / "Harley-Davidson Evolution"), or the word is
 * rare ("Magalona"); longer short forms only when the dropped words are
 * initials or the name is a person's ("George Solomon" / "George T. Solomon"). Not "Japan" / "Maiden
 * Japan", not "Seattle Art Museum" / "Seattle Asian Art Museum".
 */
function mayStandAlone(short: NameForm, long: NameForm, context: MatchContext): boolean {
  const isPerson = (form: NameForm): boolean => form.type !== undefined && context.personTypes.has(form.type);
  const shortWords = keyWords(short.key);
  if (isPerson(short) || isPerson(long)) return shortWords.length > 1 || (context.isSurnameLike?.(short.key) ?? true);
  if (shortWords.length >= 2) return keyWords(long.key).every((word) => shortWords.includes(word) || word.length === 1);
  const rank = context.vectors?.rank?.(short.key);
  return context.vectors?.rank !== undefined && (rank === undefined || rank >= RARE_RANK);
}

function isSubsequence(short: readonly string[], long: readonly string[]): boolean {
  let at = 0;
  for (const word of long) if (word === short[at]) at++;
  return at === short.length;
}

function isPrefix(short: readonly string[], long: readonly string[]): boolean {
  return short.every((word, index) => long[index] === word);
}

/**
 * Both similarity scores reach their thresholds, the keys have the same number of words ("Irondequoit
 * Bay" is not "Irondequoit Bay Bridge"), and each word pair is equal or, when both are 5+ characters, reach `WORD_JARO_WINKLER` ("John Smith" is not
 * "Joan Smith"; "Nikolai Gogol" is "Nikolay Gogol").
 */
function isFuzzyMatch(a: string, b: string, thresholds: MatchThresholds): boolean {
  if (Math.min(a.length, b.length) < MIN_FUZZY_LENGTH) return false;
  if (jaroWinkler(a, b) < thresholds.jaroWinkler || trigramDice(a, b) < thresholds.trigramDice) return false;
  const aWords = keyWords(a);
  const bWords = keyWords(b);
  if (aWords.length !== bWords.length) return false;
  return aWords.every((word, index) => {
    const other = bWords[index] ?? '';
    if (word === other) return true;
    if (withoutPlural(word) === withoutPlural(other)) return true;
    if (isDerivation(word, other) || contrasts(word, other)) return false;
    return Math.min(word.length, other.length) >= MIN_FUZZY_LENGTH && jaroWinkler(word, other) >= WORD_JARO_WINKLER;
  });
}

/** Without a plural ending ("members" → "member", "churches" → "church"). */
function withoutPlural(word: string): string {
  if (/(?:ches|shes|sses|xes)$/.test(word)) return word.slice(0, -2);
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

/**
 * "chilean" extends "chile", "membership" extends "member", "wrightsboro" extends "wrights": one word
 * (plural aside) is a prefix of the other, so it is a derived or compound word, not a variant.
 */
function isDerivation(a: string, b: string): boolean {
  const [short, long] = [withoutPlural(a), withoutPlural(b)].sort((x, y) => x.length - y.length) as [string, string];
  return short !== long && long.startsWith(short);
}

const CONTRASTIVE_PREFIXES = ['north', 'south', 'east', 'west', 'upper', 'lower', 'inner', 'outer'];

/** Words that tell siblings apart: counting words, or different compass/position words. */
function contrasts(a: string, b: string): boolean {
  if (COUNTING_WORDS.has(a) || COUNTING_WORDS.has(b)) return true;
  const prefixOf = (word: string): string | undefined => CONTRASTIVE_PREFIXES.find((prefix) => word.startsWith(prefix));
  const aPrefix = prefixOf(a);
  return aPrefix !== undefined && prefixOf(b) !== undefined && a !== b;
}

/** Frequent words (GloVe's first 100k) have reliable vectors; misspellings are rarely among them. */
const RELIABLE_RANK = 100_000;
const VETO_COSINE = 0.5;

/**
 * Two look-alike keys whose differing words are both frequent words with unlike vectors, or differ
 * only in their endings, are two things ("Columbia" / "Colombia", "Communist" / "Communism"). Without
 * word vectors (no frequencies) every ending variant is vetoed ("Nikolai" / "Nikolay" too).
 */
function vectorsDisagree(a: string, b: string, context: Pick<MatchContext, 'vectors'>): boolean {
  const { vectors } = context;
  const [aOnly, bOnly] = differingWords(a, b);
  const oneWordEach = aOnly.length === 1 && bOnly.length === 1;
  if (vectors?.rank === undefined) return oneWordEach && isEndingVariant(aOnly[0] ?? '', bOnly[0] ?? '');
  const frequent = (word: string): boolean => (vectors.rank?.(word) ?? Number.POSITIVE_INFINITY) < RELIABLE_RANK;
  if (aOnly.length === 0 || bOnly.length === 0 || ![...aOnly, ...bOnly].every(frequent)) return false;
  if (oneWordEach && isEndingVariant(aOnly[0] ?? '', bOnly[0] ?? '')) return true;
  const cosine = wordsCosine(aOnly, bOnly, vectors);
  return cosine !== undefined && cosine < VETO_COSINE;
}

/** Two frequent words that differ only in their last few letters are two words ("economic" / "economy"). */
function isEndingVariant(a: string, b: string): boolean {
  if (withoutPlural(a) === withoutPlural(b)) return false;
  let shared = 0;
  while (shared < a.length && a[shared] === b[shared]) shared++;
  return shared >= 4 && a.length - shared <= 3 && b.length - shared <= 3;
}

const COUNTING_WORDS = new Set([
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'eighth',
  'ninth',
  'tenth',
  'last',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'single',
  'double',
  'triple',
  'northern',
  'southern',
  'eastern',
  'western',
  'left',
  'right',
  'front',
  'back',
  'summer',
  'winter',
  'spring',
  'autumn',
]);

/** Same head word, and the differing modifiers are near-synonyms ("film" / "movie"); never counting words. */
function isVectorMatch(a: string, b: string, context: MatchContext): boolean {
  const cosine = modifierCosine(a, b, context);
  return cosine !== undefined && cosine >= context.thresholds.vectorCosine;
}

/** Cosine of the words two phrases with the same head do not share, or undefined when not comparable. */
function modifierCosine(a: string, b: string, context: Pick<MatchContext, 'vectors'>): number | undefined {
  const aWords = keyWords(a);
  const bWords = keyWords(b);
  if (context.vectors === undefined || aWords[aWords.length - 1] !== bWords[bWords.length - 1]) return undefined;
  const [aOnly, bOnly] = differingWords(a, b);
  if (aOnly.length === 0 || bOnly.length === 0) return undefined;
  if (aOnly.some((word) => bOnly.some((other) => contrasts(word, other)))) return undefined;
  return wordsCosine(aOnly, bOnly, context.vectors);
}

function differingWords(a: string, b: string): [string[], string[]] {
  const aWords = keyWords(a);
  const bWords = keyWords(b);
  return [aWords.filter((word) => !bWords.includes(word)), bWords.filter((word) => !aWords.includes(word))];
}

function wordsCosine(aWords: readonly string[], bWords: readonly string[], vectors: WordVectors): number | undefined {
  const aVector = phraseVector(vectors, aWords);
  const bVector = phraseVector(vectors, bWords);
  return aVector === undefined || bVector === undefined ? undefined : dot(aVector, bVector);
}
