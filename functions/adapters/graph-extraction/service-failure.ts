/**
 * What the managed graph extractors (a language model, Amazon Comprehend) share beyond the port they
 * implement (`GraphExtractor`, functions/core/ingest/memory-graph.ts): what to do when their service keeps
 * failing, and the error they throw when told not to fall back to the offline extractor.
 */
import { InternalError } from '../../core/errors';

/** What to do when the service keeps failing (throttled, down, refusing the key) after the retries. */
export type ServiceFailurePolicy = 'fall-back' | 'throw';

/** A service failure surfaced under `onServiceFailure: 'throw'`; `retryable` when a later try may succeed. */
export class GraphExtractionError extends InternalError {
  override readonly name: string = 'GraphExtractionError';
  readonly retryable: boolean;
  /** Tokens the file's calls consumed before the failure (still to be charged). */
  readonly tokensUsed: number;

  constructor(message: string, options: { retryable: boolean; tokensUsed?: number; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.retryable = options.retryable;
    this.tokensUsed = options.tokensUsed ?? 0;
  }
}
