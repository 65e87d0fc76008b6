/**
 * An outside reranker's order over the best fused candidates, before merging and de-duplication
 * (dedup.ts): the first `candidates` hits are scored by the reranker and sorted by its relevance (its
 * score becomes the hit's); a hit it leaves unscored, and every hit past `candidates`, follows in fused
 * order with its fused score capped at the lowest relevance, so scores never rise down the list.
 * A reranker that answers nothing usable (`null`) leaves the fused order as it was.
 */
import type { FusedHit } from './fuse';
import type { RetrievalIndex } from './retrieval-index';

/** One candidate's relevance: `index` is its position in the texts handed over. */
export interface CandidateRelevance {
  readonly index: number;
  readonly score: number;
}

export interface CandidateRerank {
  /** The best fused candidates handed over at most. */
  readonly candidates: number;
  /** The relevance of each text (chunk texts, best fused first), or null to keep the fused order. */
  score(texts: readonly string[]): Promise<readonly CandidateRelevance[] | null>;
}

export interface RerankedHits {
  hits: FusedHit[];
  /** Whether the reranker's order was used. */
  reranked: boolean;
}

/** `hits` in the reranker's order (see the module comment). */
export async function rerankHits(index: RetrievalIndex, hits: readonly FusedHit[], rerank: CandidateRerank): Promise<RerankedHits> {
  const head = hits.slice(0, Math.max(0, Math.floor(rerank.candidates)));
  if (head.length === 0) return { hits: [...hits], reranked: false };
  const relevance = await rerank.score(head.map((hit) => index.chunks.texts.at(hit.ordinal) ?? ''));
  if (!relevance || relevance.length === 0) return { hits: [...hits], reranked: false };
  return { hits: orderByRelevance(hits, head.length, relevance), reranked: true };
}

/**
 * The first `scored` hits sorted by `relevance` (indexes out of range or repeated are ignored; equal
 * scores keep the fused order), then the rest in fused order, their scores capped at the lowest relevance.
 */
export function orderByRelevance(hits: readonly FusedHit[], scored: number, relevance: readonly CandidateRelevance[]): FusedHit[] {
  const best = new Map<number, number>();
  for (const { index, score } of relevance) {
    if (Number.isInteger(index) && index >= 0 && index < scored && Number.isFinite(score) && !best.has(index)) best.set(index, score);
  }
  const ranked = [...best].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([index, score]) => ({ ...hitAt(hits, index), score }));
  const floor = ranked.length > 0 ? (ranked[ranked.length - 1]?.score ?? 0) : Number.POSITIVE_INFINITY;
  const rest = hits.filter((_, index) => !best.has(index)).map((hit) => ({ ...hit, score: Math.min(hit.score, floor) }));
  return [...ranked, ...rest];
}

function hitAt(hits: readonly FusedHit[], index: number): FusedHit {
  const hit = hits[index];
  if (!hit) throw new RangeError(`no fused hit at ${index}`);
  return hit;
}
