/**
 * Graph extraction with Amazon Comprehend `DetectEntities` (the cheaper managed option): one request
 * per chunk (several in flight), entities from Comprehend, noun-phrase concepts, pattern types,
 * relations and facts from the offline extractor (see `comprehend-mentions.ts`). Throttling and 5xx
 * are retried with backoff; a chunk whose requests keep failing, or that is over Comprehend's 100 KB
 * limit, is made by the offline extractor (`fellBack: true` with the reason) unless
 * `onServiceFailure: 'throw'`. No model tokens are used; `billedUnits` counts Comprehend's units
 * (100 characters, at least 3 per request).
 */
import type { ComprehendClient, DetectEntitiesCommand, Entity, LanguageCode } from '@aws-sdk/client-comprehend';
import type { ChunkExtraction, GraphFileInput } from '../../engine/graph';
import { comprehendChunkExtraction } from './comprehend-mentions';
import { offlineChunks, type IndexedChunk } from './offline';
import type { ExtractionContext, GraphExtractionResult, GraphExtractor } from '../../core/ingest/ports';
import { GraphExtractionError, type ServiceFailurePolicy } from './service-failure';
import { mapConcurrently } from '../../core/concurrency';
import { loadOnce } from '../load-once';
import { awsCallError, resolveRetryPolicy, ServiceCallError, withRetries, type ResolvedRetryPolicy, type RetryPolicy } from './retry';

export interface ComprehendExtractorOptions {
  readonly region: string;
  /** Language of the texts; default `en`. */
  readonly languageCode?: LanguageCode;
  /** Lowest Comprehend confidence kept; default 0.5. */
  readonly minScore?: number;
  /** Requests in flight per file; default 4. */
  readonly concurrency?: number;
  readonly retry?: RetryPolicy;
  /** Default 'fall-back'; 'throw' raises `GraphExtractionError`. */
  readonly onServiceFailure?: ServiceFailurePolicy;
  /** Custom endpoint URL (tests, VPC interface endpoints). */
  readonly endpoint?: string;
  /** Static credentials (tests); the default provider chain otherwise. */
  readonly credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** An existing client instead of building one (its own retry settings then apply too). */
  readonly client?: ComprehendClient;
}

/** DetectEntities takes at most 100 KB of UTF-8 text. */
const MAX_TEXT_BYTES = 100_000;

type ChunkOutcome = { readonly made?: ChunkExtraction; readonly problem?: string };

export class ComprehendGraphExtractor implements GraphExtractor {
  readonly name = 'comprehend';
  /** The client and its command, made at the first call: the SDK module loads then, not at import. */
  private readonly sdk: () => Promise<{ client: ComprehendClient; DetectEntities: typeof DetectEntitiesCommand }>;
  private readonly retry: ResolvedRetryPolicy;

  constructor(private readonly options: ComprehendExtractorOptions) {
    this.retry = resolveRetryPolicy(options.retry);
    this.sdk = loadOnce(async () => {
      const { ComprehendClient, DetectEntitiesCommand } = await import('@aws-sdk/client-comprehend');
      const client =
        options.client ??
        new ComprehendClient({
          region: options.region,
          maxAttempts: 1,
          ...(options.endpoint ? { endpoint: options.endpoint } : {}),
          ...(options.credentials ? { credentials: options.credentials } : {}),
        });
      return { client, DetectEntities: DetectEntitiesCommand };
    });
  }

  async extract(input: GraphFileInput, context: ExtractionContext): Promise<GraphExtractionResult> {
    const usage = { calls: 0, units: 0 };
    const chunks: IndexedChunk[] = input.chunks.map((chunk, index) => ({ ...chunk, index }));
    const outcomes = await mapConcurrently(chunks, this.options.concurrency ?? 4, (chunk) => this.extractChunk(chunk, context, usage));
    const offline = chunks.filter((_, position) => outcomes[position]?.made === undefined);
    const made = [
      ...outcomes.flatMap((outcome) => (outcome.made ? [outcome.made] : [])),
      ...(await offlineChunks(input.fileId, offline, context)),
    ];
    made.sort((a, b) => a.index - b.index);
    const problem = outcomes.find((outcome) => outcome.problem !== undefined)?.problem;
    const fellBack = problem !== undefined;
    return {
      extraction: { fileId: input.fileId, chunks: made },
      tokensUsed: 0,
      fellBack,
      ...(fellBack ? { reason: `comprehend: ${problem}; offline extractor used for ${offline.length} of ${chunks.length} chunks` } : {}),
      offlineChunks: offline.length,
      calls: usage.calls,
      billedUnits: usage.units,
    };
  }

  private async extractChunk(
    chunk: IndexedChunk,
    context: ExtractionContext,
    usage: { calls: number; units: number },
  ): Promise<ChunkOutcome> {
    if (chunk.text.trim() === '') return {};
    if (Buffer.byteLength(chunk.text, 'utf8') > MAX_TEXT_BYTES)
      return { problem: `chunk ${chunk.index} is over Comprehend's 100 KB limit` };
    const { client, DetectEntities } = await this.sdk();
    const command = new DetectEntities({ Text: chunk.text, LanguageCode: this.options.languageCode ?? 'en' });
    let entities: Entity[];
    try {
      const output = await withRetries(
        async () => {
          try {
            return await client.send(command);
          } catch (error) {
            throw awsCallError('Amazon Comprehend DetectEntities', error);
          }
        },
        this.retry,
        usage,
      );
      entities = output.Entities ?? [];
    } catch (error) {
      if (!(error instanceof ServiceCallError)) throw error;
      if (this.options.onServiceFailure === 'throw')
        throw new GraphExtractionError(error.message, { retryable: error.retryable, cause: error });
      return { problem: `service failure: ${error.message}` };
    }
    usage.units += Math.max(3, Math.ceil(chunk.text.length / 100));
    const made = comprehendChunkExtraction(
      { chunkId: chunk.id, index: chunk.index, text: chunk.text, entities },
      context,
      this.options.minScore ?? 0.5,
    );
    return { made };
  }
}
