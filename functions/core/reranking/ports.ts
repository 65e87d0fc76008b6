/**
 * The port a reranking model implements: a query and candidate texts in, a relevance score for each
 * text out. Adapters: functions/adapters/reranking (Amazon Bedrock's Rerank API, a Cohere-style
 * `POST /rerank` endpoint). Which candidates go out, and what happens when the model fails, is
 * candidate-rerank.ts's.
 */
import { InternalError } from '../errors';

/** One text's relevance: `index` is its position in the texts sent, `score` the higher the more relevant. */
export interface Relevance {
  readonly index: number;
  readonly score: number;
}

export interface Reranker {
  /** "openai-compatible/<model>", "bedrock/<model>". */
  readonly name: string;
  /** The best fused candidates handed over at most. */
  readonly candidates: number;
  /**
   * The relevance of `texts` to `query`, best first; every index in range and named once (a text the
   * model leaves out keeps its fused place after the ones it scored). Throws `RerankerError` on failure.
   */
  rerank(query: string, texts: readonly string[]): Promise<readonly Relevance[]>;
}

/** The reranker gave no usable answer (service failure, time-out, malformed answer). */
export class RerankerError extends InternalError {
  override readonly name: string = 'RerankerError';
}
