/**
 * `AnswerGenerator` over any `StructuredModel` (OpenAI-compatible chat completions, Amazon Bedrock
 * Converse; functions/adapters/graph-extraction holds both clients): one request with the evidence
 * and the `{answer}` schema, retried with backoff while the service throttles or fails (retry.ts),
 * all within a deadline: an answer that is not there in time is given up, so the query still answers
 * (with the extracts) before the API's own time limit. A refusal, an answer cut at the output limit,
 * or one in the wrong form is an `AnswerModelError` too; the use case falls back on any of them.
 */
import { AnswerModelError, type AnswerGenerator, type EvidenceItem, type GeneratedAnswer } from '../../core/answers/ports';
import { resolveRetryPolicy, ServiceCallError, withRetries, type ResolvedRetryPolicy, type RetryPolicy } from '../graph-extraction/retry';
import {
  estimateCallTokens,
  type StructuredModel,
  type StructuredReply,
  type StructuredRequest,
} from '../graph-extraction/structured-model';
import { ANSWER_JSON_SCHEMA, ANSWER_SCHEMA_DESCRIPTION, ANSWER_SCHEMA_NAME, SYSTEM_PROMPT, answerUserPrompt } from './answer-prompt';

export interface ModelAnswerGeneratorOptions {
  readonly model: StructuredModel;
  /** Longest wait for an answer, retries included; default 15 s. */
  readonly timeoutMs?: number;
  /** Default: 3 tries, 200 ms doubling, at most 2 s apart. */
  readonly retry?: RetryPolicy;
  /** Output token limit; default 1,024. */
  readonly maxOutputTokens?: number;
}

const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 200, maxDelayMs: 2_000 };

export class ModelAnswerGenerator implements AnswerGenerator {
  readonly name: string;
  private readonly retry: ResolvedRetryPolicy;
  private readonly timeoutMs: number;
  private readonly maxOutputTokens: number;

  constructor(private readonly options: ModelAnswerGeneratorOptions) {
    this.name = options.model.name;
    this.retry = resolveRetryPolicy(options.retry ?? DEFAULT_RETRY);
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.maxOutputTokens = options.maxOutputTokens ?? 1_024;
  }

  maxTokens(query: string, items: readonly EvidenceItem[]): number {
    return estimateCallTokens(SYSTEM_PROMPT, answerUserPrompt(query, items)) + this.maxOutputTokens;
  }

  async answer(query: string, items: readonly EvidenceItem[]): Promise<GeneratedAnswer> {
    const request: StructuredRequest = {
      system: SYSTEM_PROMPT,
      user: answerUserPrompt(query, items),
      schemaName: ANSWER_SCHEMA_NAME,
      schemaDescription: ANSWER_SCHEMA_DESCRIPTION,
      jsonSchema: ANSWER_JSON_SCHEMA,
      maxOutputTokens: this.maxOutputTokens,
    };
    const reply = await this.complete(request);
    const tokensUsed = reply.tokensUsed;
    if (reply.refusal !== undefined)
      throw new AnswerModelError(`${this.name}: the model refused: ${reply.refusal.slice(0, 120)}`, { tokensUsed });
    if (reply.truncated)
      throw new AnswerModelError(`${this.name}: the answer was cut at the output limit (${this.maxOutputTokens} tokens)`, { tokensUsed });
    const text = answerText(reply.content);
    if (text === undefined) throw new AnswerModelError(`${this.name}: the answer is not the {answer} object asked for`, { tokensUsed });
    return { text, tokensUsed };
  }

  private complete(request: StructuredRequest): Promise<StructuredReply> {
    return completeBeforeDeadline(this.options.model, request, this.retry, this.timeoutMs);
  }
}

/**
 * One successful reply of `model` within `timeoutMs`, retried per `retry`; a service failure or the
 * deadline is an `AnswerModelError` (grounded answers and session summaries alike).
 */
export async function completeBeforeDeadline(
  model: StructuredModel,
  request: StructuredRequest,
  retry: ResolvedRetryPolicy,
  timeoutMs: number,
): Promise<StructuredReply> {
  const deadline = Date.now() + timeoutMs;
  const once = (): Promise<StructuredReply> => {
    // a retry the deadline has overtaken is not sent (the caller has moved on)
    if (Date.now() >= deadline) return Promise.reject(new ServiceCallError('deadline passed', { retryable: false }));
    return model.complete(request);
  };
  try {
    return await beforeDeadline(withRetries(once, retry, { calls: 0 }), deadline, timeoutMs);
  } catch (error) {
    if (error instanceof ServiceCallError) throw new AnswerModelError(`${model.name}: ${error.message}`, { cause: error });
    throw error;
  }
}

/** The answer text of a reply: the `answer` of the JSON object (text or already parsed), or plain text. */
function answerText(content: unknown): string | undefined {
  const value = typeof content === 'string' ? (parseObject(content) ?? content) : content;
  if (typeof value === 'string') return value.trim().startsWith('{') ? undefined : value.trim();
  if (typeof value !== 'object' || value === null) return undefined;
  const answer: unknown = (value as Record<string, unknown>).answer;
  return typeof answer === 'string' ? answer.trim() : undefined;
}

export function parseObject(text: string): object | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** `work`, or a non-retryable `ServiceCallError` once `deadline` passes (the work itself is left to end on its own). */
function beforeDeadline<T>(work: Promise<T>, deadline: number, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ServiceCallError(`no answer within ${timeoutMs} ms`, { retryable: false })),
      Math.max(0, deadline - Date.now()),
    );
  });
  work.catch(() => undefined); // its failure after the deadline is nobody's to handle
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
