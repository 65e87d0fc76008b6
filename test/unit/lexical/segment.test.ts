/** BM25 over a lexical segment: ranking, idf, a hand-computed score, ties, options and a reference model. */
import { fc } from '../../support/property-seed';
import { describe, expect, it } from 'vitest';
import { analyze, type AnalyzerOptions } from '../../../functions/engine/lexical/analyzer';
import { bm25Idf, buildSegment, DEFAULT_BM25, type LexicalDocument, search, termPostings } from '../../../functions/engine/lexical/segment';

const RAW = { stem: false, stopwords: false };

const CORPUS: LexicalDocument[] = [
  { id: 'c1', fileId: 'f-bio', text: 'Mitochondria produce ATP through oxidative phosphorylation in the cell.' },
  { id: 'c2', fileId: 'f-bio', text: 'Ribosomes translate messenger RNA into proteins in the cytoplasm of the cell.' },
  { id: 'c3', fileId: 'f-space', text: 'The Apollo program landed astronauts on the Moon between 1969 and 1972.' },
  { id: 'c4', fileId: 'f-space', text: 'Mars rovers study the geology of the red planet and search for water.' },
  { id: 'c5', fileId: 'f-cook', text: 'Knead the dough, let it rise, then bake the bread in a hot oven.' },
];

describe('buildSegment', () => {
  it('records docs, files, lengths, sorted vocabulary, postings and options', () => {
    const segment = buildSegment(
      [
        { id: 'a', fileId: 'f1', text: 'apple banana apple' },
        { id: 'b', fileId: 'f2', text: 'banana' },
        { id: 'c', fileId: 'f1', text: '' },
      ],
      RAW,
    );
    expect(segment.analyzer).toEqual({ ...RAW, language: 'auto' });
    expect(segment.languages).toEqual(['en']);
    expect(segment.docIds).toEqual(['a', 'b', 'c']);
    expect(segment.fileIds).toEqual(['f1', 'f2']);
    expect([...segment.docFiles]).toEqual([0, 1, 0]);
    expect([...segment.docLengths]).toEqual([3, 1, 0]);
    expect(segment.avgDocLength).toBeCloseTo(4 / 3, 12);
    expect(segment.terms).toEqual(['apple', 'banana']);
    expect([...segment.docFreqs]).toEqual([1, 2]);
    const banana = termPostings(segment, 'banana');
    expect([...banana.docs]).toEqual([0, 1]);
    expect([...banana.freqs]).toEqual([1, 1]);
    expect([...termPostings(segment, 'apple').freqs]).toEqual([2]);
    expect(termPostings(segment, 'cherry').docs.length).toBe(0);
  });

  it('rejects duplicate ids', () => {
    const doc = { id: 'same', fileId: 'f', text: 'x' };
    expect(() => buildSegment([doc, doc])).toThrow(RangeError);
  });
});

describe('search', () => {
  const segment = buildSegment(CORPUS);

  it('ranks the relevant chunk first and returns its file', () => {
    expect(search(segment, 'How do cells make ATP?', 3)[0]).toMatchObject({ id: 'c1', fileId: 'f-bio' });
    expect(search(segment, 'moon landing astronauts', 3)[0]?.id).toBe('c3');
    expect(search(segment, 'baking bread', 3)[0]?.id).toBe('c5');
    expect(search(segment, 'rover on Mars', 1).map((hit) => hit.id)).toEqual(['c4']);
  });

  it('returns only matching docs, at most k, best first', () => {
    const hits = search(segment, 'cell', 10);
    expect(hits.map((hit) => hit.id).sort()).toEqual(['c1', 'c2']);
    expect(search(segment, 'the cell planet bread', 2)).toHaveLength(2);
    const scores = search(segment, 'the cell planet bread oven', 5).map((hit) => hit.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('returns nothing for k <= 0, an empty or stopword-only query, or an empty segment', () => {
    expect(search(segment, 'cell', 0)).toEqual([]);
    expect(search(segment, 'cell', 0.5)).toEqual([]);
    expect(search(segment, 'cell', Number.NaN)).toEqual([]);
    expect(search(segment, 'cell', 1.9)).toHaveLength(1);
    expect(search(segment, '', 5)).toEqual([]);
    expect(search(segment, 'the of and', 5)).toEqual([]);
    expect(search(buildSegment([]), 'cell', 5)).toEqual([]);
  });

  it('lets a rare term outweigh a common one (idf)', () => {
    const docs = [
      { id: 'common', fileId: 'f', text: 'alpha alpha beta' },
      { id: 'rare', fileId: 'f', text: 'alpha zeta beta' },
      { id: 'x1', fileId: 'f', text: 'alpha beta' },
      { id: 'x2', fileId: 'f', text: 'alpha gamma' },
    ];
    const hits = search(buildSegment(docs, RAW), 'alpha zeta', 2);
    expect(hits.map((hit) => hit.id)).toEqual(['rare', 'common']);
    expect(bm25Idf(4, 1)).toBeGreaterThan(bm25Idf(4, 4));
    expect(bm25Idf(4, 4)).toBeGreaterThan(0);
  });

  it('matches a hand-computed BM25 score (k1 = 0.9, b = 0.4)', () => {
    const docs = [
      { id: 'd1', fileId: 'f', text: 'apple banana' },
      { id: 'd2', fileId: 'f', text: 'apple cherry cherry' },
      { id: 'd3', fileId: 'f', text: 'banana' },
    ];
    // N = 3, df = 1, tf = 2, dl = 3, avgdl = 2:
    // ln(1 + 2.5 / 1.5) * 2 * 1.9 / (2 + 0.9 * (0.6 + 0.4 * 1.5)) = 0.980829... * 3.8 / 3.08
    expect(DEFAULT_BM25).toEqual({ k1: 0.9, b: 0.4 });
    const [hit] = search(buildSegment(docs, RAW), 'cherry', 1);
    expect(hit?.id).toBe('d2');
    expect(hit?.score).toBeCloseTo(1.2101140134560258, 12);
  });

  it('uses k1 and b when given', () => {
    const docs = [
      { id: 'short', fileId: 'f', text: 'term' },
      { id: 'long', fileId: 'f', text: 'term filler filler filler filler filler filler' },
    ];
    const segment2 = buildSegment(docs, RAW);
    const noLengthNorm = search(segment2, 'term', 2, { b: 0 });
    expect(noLengthNorm[0]?.score).toBe(noLengthNorm[1]?.score);
    expect(noLengthNorm.map((hit) => hit.id)).toEqual(['short', 'long']);
    const [withNorm] = search(segment2, 'term', 1, { k1: 1.2, b: 0.75 });
    expect(withNorm?.id).toBe('short');
  });

  it('breaks ties by doc ordinal, also past the heap size', () => {
    const docs = Array.from({ length: 50 }, (_, index) => ({ id: `d${index}`, fileId: 'f', text: 'identical words' }));
    expect(search(buildSegment(docs), 'identical', 5).map((hit) => hit.id)).toEqual(['d0', 'd1', 'd2', 'd3', 'd4']);
  });

  it('analyzes the query with the options the segment was built with', () => {
    const docs = [{ id: 'a', fileId: 'f', text: 'running' }];
    expect(search(buildSegment(docs), 'runs', 1)).toHaveLength(1);
    expect(search(buildSegment(docs, { stem: false }), 'runs', 1)).toHaveLength(0);
    expect(search(buildSegment(docs, { stem: false }), 'running', 1)).toHaveLength(1);
  });

  it('agrees with a straightforward BM25 over analyze() (property)', () => {
    const vocabulary = ['ant', 'bee', 'cat', 'dog', 'eel', 'fox', 'gnu', 'the', 'and', 'running', 'runs'];
    const text = fc.array(fc.constantFrom(...vocabulary), { maxLength: 12 }).map((words) => words.join(' '));
    fc.assert(
      fc.property(
        fc.array(text, { minLength: 1, maxLength: 30 }),
        text,
        fc.integer({ min: 1, max: 8 }),
        fc.record({ stem: fc.boolean(), stopwords: fc.boolean() }),
        (texts, query, k, options) => {
          const docs = texts.map((body, index) => ({ id: `d${index}`, fileId: `f${index % 3}`, text: body }));
          const expected = referenceSearch(docs, query, k, options);
          const actual = search(buildSegment(docs, options), query, k);
          expectSameTopK(actual, expected, referenceScores(docs, query, options));
        },
      ),
      { numRuns: 300 },
    );
  });
});

/** Scores equal to this tolerance are ties: two summation orders of the same terms may differ in the last bit. */
const SCORE_TOLERANCE = 1e-9;

/**
 * `actual` is a correct top-k: as long as the reference, each hit scored as the reference scores that doc,
 * best first, and no doc left out scoring more than the last hit. Where scores tie within float noise,
 * any of the tied docs may take the place, so ids are compared only where scores differ.
 */
function expectSameTopK(actual: { id: string; score: number }[], expected: { id: string; score: number }[], scores: Map<string, number>) {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((hit, index) => {
    expect(hit.score).toBeCloseTo(scores.get(hit.id) ?? Number.NaN, 9);
    expect(hit.score).toBeCloseTo(expected[index]?.score ?? Number.NaN, 9);
  });
  const returned = new Set(actual.map((hit) => hit.id));
  const last = actual.at(-1)?.score ?? 0;
  for (const [id, score] of scores) if (!returned.has(id)) expect(score).toBeLessThanOrEqual(last + SCORE_TOLERANCE);
}

function referenceScores(docs: LexicalDocument[], query: string, options: AnalyzerOptions): Map<string, number> {
  const all = referenceSearch(docs, query, docs.length, options);
  return new Map(all.map((hit) => [hit.id, hit.score]));
}

/** BM25 straight from the definition, sorting every doc: the model `search` must agree with. */
function referenceSearch(docs: LexicalDocument[], query: string, k: number, options: AnalyzerOptions) {
  const docTerms = docs.map((doc) => analyze(doc.text, options));
  const average = docTerms.reduce((sum, terms) => sum + terms.length, 0) / docs.length || 1;
  const { k1, b } = DEFAULT_BM25;
  const scored = docs.map((doc, ordinal) => {
    const terms = docTerms[ordinal] ?? [];
    let score = 0;
    for (const term of analyze(query, options)) {
      const tf = terms.filter((t) => t === term).length;
      if (tf === 0) continue;
      const df = docTerms.filter((other) => other.includes(term)).length;
      const idf = Math.log(1 + (docs.length - df + 0.5) / (df + 0.5));
      score += (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * terms.length) / average));
    }
    return { id: doc.id, ordinal, score };
  });
  return scored
    .filter((hit) => hit.score > 0)
    .sort((x, y) => y.score - x.score || x.ordinal - y.ordinal)
    .slice(0, k);
}
