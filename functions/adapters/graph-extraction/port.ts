/**
 * The port ingestion calls per file to get a graph extraction, whoever makes it (the offline
 * extractor, a language model, Amazon Comprehend). Every implementation returns the same
 * `FileExtraction` the offline `extractFile` returns, so `mergeFile` resolves it unchanged, plus
 * what it cost: model tokens (for the account budget), service calls, and whether, for how many
 * chunks and why, the offline extractor stood in.
 */
import type { extractFile, FileExtraction, GraphFileInput } from '../../engine/graph';

/** What the offline extractor needs, and every extractor gets: the memory's ontology schema, facts on/off, optional vector typer. */
export type ExtractionContext = Parameters<typeof extractFile>[1];

export interface GraphExtractionResult {
  readonly extraction: FileExtraction;
  /** Model tokens the file's calls consumed (prompt + completion, malformed answers included); 0 offline and for Comprehend. */
  readonly tokensUsed: number;
  /** Whether any chunk's extraction came from the offline extractor instead of the service. */
  readonly fellBack: boolean;
  /** Why it fell back (the first failure, and how many chunks it covered). */
  readonly reason?: string;
  /** Chunks the offline extractor made. */
  readonly offlineChunks: number;
  /** Requests sent to the service, retries included. */
  readonly calls: number;
  /** Amazon Comprehend billing units (100 characters each, at least 3 per request); Comprehend only. */
  readonly billedUnits?: number;
}

/** Makes a file's graph extraction. Throws only with `onServiceFailure: 'throw'` (see `GraphExtractionError`). */
export interface ManagedGraphExtractor {
  /** "offline", "openai-compatible/<model>", "bedrock/<model>", "comprehend". */
  readonly name: string;
  extract(input: GraphFileInput, context: ExtractionContext): Promise<GraphExtractionResult>;
}

/** What to do when the service keeps failing (throttled, down, refusing the key) after the retries. */
export type ServiceFailurePolicy = 'fall-back' | 'throw';

/** A service failure surfaced under `onServiceFailure: 'throw'`; `retryable` when a later try may succeed. */
export class GraphExtractionError extends Error {
  override readonly name = 'GraphExtractionError';
  readonly retryable: boolean;
  /** Tokens the file's calls consumed before the failure (still to be charged). */
  readonly tokensUsed: number;

  constructor(message: string, options: { retryable: boolean; tokensUsed?: number; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.retryable = options.retryable;
    this.tokensUsed = options.tokensUsed ?? 0;
  }
}
