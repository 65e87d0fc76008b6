/**
 * The reranking step of retrieval: the engine's order over the best fused candidates (rerank-order.ts,
 * through `retrieve`), and the service's wrapper that turns a reranker failure into the fused order
 * (core/reranking/candidate-rerank.ts). The reranker here is a function of the texts it is handed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type RerankReport, candidateRerank } from '../../../functions/core/reranking/candidate-rerank';
import { type Relevance, type Reranker, RerankerError } from '../../../functions/core/reranking/ports';
import type { FusedHit } from '../../../functions/engine/retrieval/fuse';
import { buildRetrievalIndex, type RetrievalIndex } from '../../../functions/engine/retrieval/retrieval-index';
import { type CandidateRerank, orderByRelevance } from '../../../functions/engine/retrieval/rerank-order';
import { retrieve } from '../../../functions/engine/retrieval/retrieve';

const TEXTS = [
  'Rivers carry water to the sea. The river Severn is the longest river in Britain.',
  'A river delta forms where a river meets the sea and drops its sediment.',
  'River otters hunt fish along the river bank at dusk.',
  'Salmon swim up the river to spawn in the gravel of its upper reaches.',
  'The weather forecast says rain by the river tomorrow.',
  'Knead the dough and let it rise for an hour.',
];

let index: RetrievalIndex;

beforeAll(async () => {
  index = await buildRetrievalIndex(TEXTS.map((text, i) => ({ id: `c${i}`, fileId: `f${i}`, text, title: `doc ${i}` })));
});

/** A reranker that prefers texts holding `word`, recording the texts it was handed. */
function preferring(word: string, candidates: number): CandidateRerank & { seen: string[][] } {
  const seen: string[][] = [];
  return {
    candidates,
    seen,
    score: async (texts) => {
      seen.push([...texts]);
      return texts.map((text, i) => ({ index: i, score: text.includes(word) ? 0.9 - i * 0.01 : 0.1 - i * 0.01 }));
    },
  };
}

const hit = (ordinal: number, score: number): FusedHit => ({ ordinal, score, parts: {} });

describe('the reranker over fused candidates', () => {
  it('changes the order: the passage the reranker prefers comes first, with its relevance as score', async () => {
    const request = { query: 'river', topK: 3 };
    const fused = await retrieve(index, request);
    expect(fused.reranked).toBe(false);
    expect(fused.items[0]?.fileId).not.toBe('f3');
    const rerank = preferring('Salmon', 50);
    const reranked = await retrieve(index, request, { rerank });
    expect(reranked.reranked).toBe(true);
    expect(reranked.items[0]?.fileId).toBe('f3');
    expect(reranked.payload[0]?.score).toBeCloseTo(0.9 - (rerank.seen[0] ?? []).indexOf(TEXTS[3] ?? '') * 0.01, 6);
    const scores = reranked.payload.map((item) => item.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('hands over the best N fused candidates only, best fused first, and keeps the rest after them', async () => {
    const request = { query: 'river', topK: 5 };
    const fused = await retrieve(index, request);
    const rerank = preferring('weather', 2);
    const reranked = await retrieve(index, request, { rerank });
    expect(rerank.seen).toHaveLength(1);
    expect(rerank.seen[0]).toEqual(fused.items.slice(0, 2).map((item) => item.content));
    // the weather chunk is not among the best two fused, so the reranker never saw it and cannot lift it
    expect(fused.items.slice(0, 2).map((item) => item.content)).not.toContain(TEXTS[4]);
    expect(reranked.items.map((item) => item.fileId).slice(2)).toEqual(fused.items.map((item) => item.fileId).slice(2));
    // a reranker asked for more candidates than topK needs gets them all (the fused list is widened)
    const wide = preferring('weather', 50);
    const widened = await retrieve(index, { query: 'river', topK: 1 }, { rerank: wide });
    expect(wide.seen[0]?.length).toBe(5);
    expect(widened.items[0]?.content).toBe(TEXTS[4]);
  });

  it('keeps the fused order, to the byte, when the reranker answers nothing', async () => {
    const request = { query: 'river sea', topK: 4, facts: true };
    const fused = await retrieve(index, request);
    const silent: CandidateRerank = { candidates: 50, score: async () => null };
    expect(await retrieve(index, request, { rerank: silent })).toEqual(fused);
    const empty: CandidateRerank = { candidates: 50, score: async () => [] };
    expect(await retrieve(index, request, { rerank: empty })).toEqual(fused);
  });

  it('orders by relevance, ignores indexes out of range or repeated, and caps the scores of the rest', () => {
    const hits = [hit(10, 5), hit(11, 4), hit(12, 3), hit(13, 2), hit(14, 1)];
    const relevance = [
      { index: 2, score: 0.8 },
      { index: 0, score: 0.2 },
      { index: 2, score: 0.99 },
      { index: 7, score: 1 },
      { index: -1, score: 1 },
      { index: 1, score: Number.NaN },
    ];
    const ordered = orderByRelevance(hits, 3, relevance);
    expect(ordered.map((h) => [h.ordinal, h.score])).toEqual([
      [12, 0.8],
      [10, 0.2],
      [11, 0.2],
      [13, 0.2],
      [14, 0.2],
    ]);
    // equal relevance keeps the fused order
    expect(
      orderByRelevance(hits, 2, [
        { index: 1, score: 1 },
        { index: 0, score: 1 },
      ]).map((h) => h.ordinal),
    ).toEqual([10, 11, 12, 13, 14]);
  });
});

/** A reranker port double: answers `answer` (or throws it). */
function reranker(answer: readonly Relevance[] | Error): Reranker {
  return {
    name: 'test/reranker',
    candidates: 3,
    rerank: async () => {
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
}

describe('the service reranking step', () => {
  it('passes the relevance on and reports the call', async () => {
    const reports: RerankReport[] = [];
    const step = candidateRerank(reranker([{ index: 1, score: 0.7 }]), 'q', (report) => reports.push(report));
    expect(step.candidates).toBe(3);
    expect(await step.score(['a', 'b'])).toEqual([{ index: 1, score: 0.7 }]);
    expect(reports).toEqual([{ reranker: 'test/reranker', outcome: 'applied', candidates: 2, ms: expect.any(Number) }]);
  });

  it('turns any failure into the fused order, reported with the reason', async () => {
    const reports: RerankReport[] = [];
    const failing = candidateRerank(reranker(new RerankerError('rerank answered 503')), 'q', (report) => reports.push(report));
    expect(await failing.score(['a'])).toBeNull();
    const broken = candidateRerank(reranker(new TypeError('bug')), 'q', (report) => reports.push(report));
    expect(await broken.score(['a'])).toBeNull();
    expect(reports.map((report) => [report.outcome, report.reason])).toEqual([
      ['failed', 'rerank answered 503'],
      ['failed', 'bug'],
    ]);
    const request = { query: 'river', topK: 3 };
    const outcome = await retrieve(index, request, { rerank: failing });
    expect(outcome).toEqual({ ...(await retrieve(index, request)), reranked: false });
  });
});
