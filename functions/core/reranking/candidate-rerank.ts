/**
 * Retrieval's reranking step as the service runs it: the configured reranker scores the best fused
 * candidates (the engine's `CandidateRerank`, functions/engine/retrieval/rerank-order.ts); any failure
 * of the reranker leaves the fused order, never fails the query. Every call is reported (`record`): the
 * retrieval route logs it, a failure as a warning with the reason, and counts it in metrics.
 */
import type { CandidateRerank } from '../../engine';
import type { Relevance, Reranker } from './ports';

export interface RerankReport {
  /** The reranker's name ("bedrock/<model>", "openai-compatible/<model>"). */
  reranker: string;
  /** `applied`: its order was used; `failed`: the fused order was kept. */
  outcome: 'applied' | 'failed';
  /** Candidates handed over. */
  candidates: number;
  /** Time the reranker took, failures included. */
  ms: number;
  /** Why it failed (the error's message). */
  reason?: string;
}

/** What retrieval needs to rerank: the configured reranker (or null: off), and where reports go. */
export interface Reranking {
  reranker: () => Reranker | null;
  record: (report: RerankReport) => void;
}

/** The engine's reranking hook over `reranker` for one query. */
export function candidateRerank(reranker: Reranker, query: string, record: Reranking['record']): CandidateRerank {
  return {
    candidates: reranker.candidates,
    score: async (texts) => {
      const started = performance.now();
      const report = (outcome: RerankReport['outcome'], reason?: string) =>
        record({
          reranker: reranker.name,
          outcome,
          candidates: texts.length,
          ms: Math.round(performance.now() - started),
          ...(reason ? { reason } : {}),
        });
      let relevance: readonly Relevance[];
      try {
        relevance = await reranker.rerank(query, texts);
      } catch (error) {
        report('failed', error instanceof Error ? error.message : String(error));
        return null;
      }
      report('applied');
      return relevance;
    },
  };
}
