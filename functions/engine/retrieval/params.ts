/**
 * Ranking parameters and their defaults. The defaults were tuned on the development splits only
 * (SciFact dev qrels, the HippoRAG MuSiQue and HotpotQA train subsets) with bench/quality/tune.ts; the
 * search, the grid and the numbers are in bench/quality/README.md.
 */
import type { FieldParams } from './lexical-scorer';

type FusionMethod = 'weighted' | 'rrf';

export interface RankParams {
  /** BM25 of the title + text field. */
  text: FieldParams;
  /** BM25 of the title field. */
  title: FieldParams;
  /** Weight of the title field, added to the text field's BM25. */
  titleWeight: number;
  /** Title-link feedback (title-links.ts): best chunks read, and the list's fusion weight (0: off). */
  links: { feedbackChunks: number; weight: number };
  /** Fusion weight of the semantic list (cosine similarity; the lexical list is max-normalised to 1). */
  semanticWeight: number;
  /** Sentence rerank (sentence-rerank.ts): weight of the best sentence's cosine, and hits reranked. */
  sentences: { weight: number; depth: number };
  /**
   * Fusion weight of a graph list (max-normalised PPR scores). `tune.ts --graph`: 0 → 0.1 moves
   * MuSiQue R@5 0.618 → 0.640 and SciFact nDCG@10 0.707 → 0.705 (HotpotQA flat); 0.3 drops SciFact
   * below 0.70. The objective is flat between 0 and 0.1; 0.1 keeps every target and helps multi-hop.
   */
  graphWeight: number;
  /** Candidates taken from each list before fusion. */
  candidates: number;
  fusion: FusionMethod;
  /** k of reciprocal-rank fusion. */
  rrfK: number;
  /** HNSW beam width at query time. */
  efSearch: number;
}

export const DEFAULT_RANK_PARAMS: Readonly<RankParams> = Object.freeze({
  text: Object.freeze({ k1: 0.9, b: 0.3, idfExponent: 1.5 }),
  title: Object.freeze({ k1: 1.2, b: 0.75, idfExponent: 1.5 }),
  titleWeight: 0.15,
  links: Object.freeze({ feedbackChunks: 2, weight: 0.4 }),
  semanticWeight: 0.35,
  sentences: Object.freeze({ weight: 0.4, depth: 20 }),
  graphWeight: 0.1,
  candidates: 100,
  fusion: 'weighted',
  rrfK: 60,
  efSearch: 80,
});

/** Overrides for some parameters (nested objects may be given in part). */
export interface RankParamOverrides extends Partial<Omit<RankParams, 'text' | 'title' | 'links' | 'sentences'>> {
  sentences?: Partial<RankParams['sentences']>;
  text?: Partial<FieldParams>;
  title?: Partial<FieldParams>;
  links?: Partial<RankParams['links']>;
}

/** `DEFAULT_RANK_PARAMS` with `overrides` applied. */
export function resolveRankParams(overrides: RankParamOverrides = {}): RankParams {
  const base = DEFAULT_RANK_PARAMS;
  return {
    ...base,
    ...overrides,
    text: { ...base.text, ...overrides.text },
    title: { ...base.title, ...overrides.title },
    links: { ...base.links, ...overrides.links },
    sentences: { ...base.sentences, ...overrides.sentences },
  };
}
