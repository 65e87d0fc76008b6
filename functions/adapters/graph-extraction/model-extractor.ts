/**
 * Graph extraction by a language model (any `StructuredModel`), per file:
 * 1. the file's chunks go out in batches (a few chunks, ~6,000 characters, per request; several
 *    requests in flight), with the ontology's answer schema;
 * 2. throttling, 5xx, time-outs: the request is retried with backoff (bounded; see `retry.ts`);
 * 3. each answer is validated (zod, `answer-schema.ts`) and grounded in the chunk texts
 *    (`ground-chunk.ts`); an invalid answer, a refusal, or entities none of which occur in the text
 *    are malformed: asked again up to `malformedRetries` times; an answer cut at the output limit is
 *    split into smaller batches instead;
 * 4. a batch still malformed, or whose service kept failing (unless `onServiceFailure: 'throw'`), is
 *    made by the offline extractor: `fellBack: true` with the reason.
 * Every token the service billed is reported, malformed answers included.
 */
import type { ChunkExtraction, GraphFileInput } from '../../engine/graph';
import { answerJsonSchema, parseAnswer } from './answer-schema';
import { groundChunk } from './ground-chunk';
import { offlineChunks, type IndexedChunk } from './offline';
import type { ExtractionContext, GraphExtractionResult, GraphExtractor } from '../../core/ingest/ports';
import { GraphExtractionError, type ServiceFailurePolicy } from './service-failure';
import { systemPrompt, extractionUserPrompt } from './extraction-prompt';
import { mapConcurrently } from '../../core/concurrency';
import { resolveRetryPolicy, ServiceCallError, withRetries, type ResolvedRetryPolicy, type RetryPolicy } from './retry';
import type { StructuredModel, StructuredReply, StructuredRequest } from './structured-model';

export interface ModelExtractorOptions {
  readonly model: StructuredModel;
  readonly retry?: RetryPolicy;
  /** Extra requests for a malformed answer before the offline fallback; default 1. */
  readonly malformedRetries?: number;
  /** Characters of chunk text per request; default 6,000 (a chunk longer than this goes alone). */
  readonly maxCharsPerRequest?: number;
  /** Chunks per request at most; default 8. */
  readonly maxChunksPerRequest?: number;
  /** Output token limit per request; default 4,096. */
  readonly maxOutputTokens?: number;
  /** Requests in flight per file; default 4. */
  readonly concurrency?: number;
  /** Default 'fall-back' (offline extraction, `fellBack: true`); 'throw' raises `GraphExtractionError`. */
  readonly onServiceFailure?: ServiceFailurePolicy;
}

interface Usage {
  tokens: number;
  calls: number;
}

type BatchOutcome = { readonly made: ChunkExtraction[]; readonly offline: IndexedChunk[]; readonly problem?: string };

export class ModelGraphExtractor implements GraphExtractor {
  readonly name: string;
  private readonly retry: ResolvedRetryPolicy;

  constructor(private readonly options: ModelExtractorOptions) {
    this.name = options.model.name;
    this.retry = resolveRetryPolicy(options.retry);
  }

  async extract(input: GraphFileInput, context: ExtractionContext): Promise<GraphExtractionResult> {
    const usage: Usage = { tokens: 0, calls: 0 };
    const chunks = input.chunks.map((chunk, index) => ({ ...chunk, index }));
    const blank = chunks.filter((chunk) => chunk.text.trim() === '');
    const batches = this.batches(chunks.filter((chunk) => chunk.text.trim() !== ''));
    const outcomes = await mapConcurrently(batches, this.options.concurrency ?? 4, (batch) => this.extractBatch(batch, context, usage));
    const offline = outcomes.flatMap((outcome) => outcome.offline);
    const made = [...outcomes.flatMap((outcome) => outcome.made), ...(await offlineChunks(input.fileId, [...blank, ...offline], context))];
    made.sort((a, b) => a.index - b.index);
    const problem = outcomes.find((outcome) => outcome.problem !== undefined)?.problem;
    const reason =
      problem === undefined
        ? undefined
        : `${this.name}: ${problem}; offline extractor used for ${offline.length} of ${chunks.length} chunks`;
    return {
      extraction: { fileId: input.fileId, chunks: made },
      tokensUsed: usage.tokens,
      fellBack: offline.length > 0,
      ...(reason === undefined ? {} : { reason }),
      offlineChunks: offline.length + blank.length,
      calls: usage.calls,
    };
  }

  /** Consecutive chunks packed up to the character and count limits. */
  private batches(chunks: readonly IndexedChunk[]): IndexedChunk[][] {
    const maxChars = this.options.maxCharsPerRequest ?? 6_000;
    const maxChunks = this.options.maxChunksPerRequest ?? 8;
    const out: IndexedChunk[][] = [];
    let current: IndexedChunk[] = [];
    let chars = 0;
    for (const chunk of chunks) {
      if (current.length > 0 && (chars + chunk.text.length > maxChars || current.length >= maxChunks)) {
        out.push(current);
        current = [];
        chars = 0;
      }
      current.push(chunk);
      chars += chunk.text.length;
    }
    if (current.length) out.push(current);
    return out;
  }

  private async extractBatch(batch: IndexedChunk[], context: ExtractionContext, usage: Usage): Promise<BatchOutcome> {
    const { schema, factExtraction } = context;
    const request = {
      system: systemPrompt(schema, factExtraction),
      user: extractionUserPrompt(batch),
      schemaName: 'knowledge_graph_extraction',
      jsonSchema: answerJsonSchema(schema),
      maxOutputTokens: this.options.maxOutputTokens ?? 4_096,
    };
    const tries = 1 + Math.max(0, this.options.malformedRetries ?? 1);
    let problem = '';
    for (let attempt = 1; attempt <= tries; attempt++) {
      const called = await this.complete(request, batch, usage);
      if ('outcome' in called) return called.outcome;
      const { reply } = called;
      usage.tokens += reply.tokensUsed;
      if (reply.truncated && batch.length > 1) return this.split(batch, context, usage);
      problem = replyProblem(reply);
      if (problem === '') {
        const grounded = this.ground(batch, reply.content, context);
        if (grounded.made) return { made: grounded.made, offline: [] };
        problem = grounded.problem;
      }
      if (reply.truncated) break;
    }
    return { made: [], offline: batch, problem: `malformed answer (${problem}) after ${tries} tries` };
  }

  /** The model's reply, or the batch's outcome when the service failed (offline, or thrown under `onServiceFailure: 'throw'`). */
  private async complete(
    request: StructuredRequest,
    batch: IndexedChunk[],
    usage: Usage,
  ): Promise<{ reply: StructuredReply } | { outcome: BatchOutcome }> {
    try {
      return { reply: await withRetries(() => this.options.model.complete(request), this.retry, usage) };
    } catch (error) {
      if (!(error instanceof ServiceCallError)) throw error;
      if (this.options.onServiceFailure === 'throw')
        throw new GraphExtractionError(error.message, { retryable: error.retryable, tokensUsed: usage.tokens, cause: error });
      return { outcome: { made: [], offline: batch, problem: `service failure: ${error.message}` } };
    }
  }

  private async split(batch: IndexedChunk[], context: ExtractionContext, usage: Usage): Promise<BatchOutcome> {
    const middle = Math.ceil(batch.length / 2);
    const parts = await Promise.all([
      this.extractBatch(batch.slice(0, middle), context, usage),
      this.extractBatch(batch.slice(middle), context, usage),
    ]);
    const problem = parts.find((part) => part.problem !== undefined)?.problem;
    return {
      made: parts.flatMap((part) => part.made),
      offline: parts.flatMap((part) => part.offline),
      ...(problem === undefined ? {} : { problem }),
    };
  }

  private ground(
    batch: readonly IndexedChunk[],
    content: unknown,
    context: ExtractionContext,
  ): { made?: ChunkExtraction[]; problem: string } {
    const parsed = parseAnswer(
      content,
      context.schema,
      batch.map((chunk) => chunk.index),
    );
    if (!parsed.ok) return { problem: parsed.problem };
    const made: ChunkExtraction[] = [];
    for (const chunk of batch) {
      const answer = parsed.chunks.get(chunk.index);
      if (answer === undefined) return { problem: `no answer for chunk ${chunk.index}` };
      const grounded = groundChunk(
        { chunkId: chunk.id, index: chunk.index, text: chunk.text },
        answer,
        context.schema,
        context.factExtraction,
      );
      if (grounded.entitiesAnswered > 0 && grounded.entitiesFound === 0)
        return { problem: `chunk ${chunk.index}: none of the entities occur in its text` };
      made.push(grounded.extraction);
    }
    return { made, problem: '' };
  }
}

/** Why a reply cannot be used as it is: a refusal or an answer cut short; empty when it can be parsed. */
function replyProblem(reply: StructuredReply): string {
  if (reply.refusal !== undefined) return `model refused: ${reply.refusal.slice(0, 120)}`;
  return reply.truncated ? 'answer cut at the output token limit' : '';
}
