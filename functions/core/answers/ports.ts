/**
 * The port a generative model implements for `assisted=true` retrieval with a model configured: a
 * question and numbered evidence in, answer text citing the evidence as `[n]` out. Adapters:
 * functions/adapters/answers (OpenAI-compatible chat completions, Amazon Bedrock Converse). Checking
 * the citations and falling back to the extracts is the use case's (grounded-answer.ts).
 */

import { InternalError } from '../errors';

/** One numbered piece of evidence: item `n` (from 1) is cited as `[n]`. */
export interface EvidenceItem {
  readonly n: number;
  readonly content: string;
}

export interface GeneratedAnswer {
  /** The answer, citing the evidence inline as `[1]`, `[2]`, … */
  readonly text: string;
  /** Tokens the model billed for the call(s), prompt and completion. */
  readonly tokensUsed: number;
}

export interface AnswerGenerator {
  /** "openai-compatible/<model>", "bedrock/<model>". */
  readonly name: string;
  /** The most tokens one `answer` call may bill (prompt estimate plus the output limit): what the budget reserves. */
  maxTokens(query: string, items: readonly EvidenceItem[]): number;
  /** Throws `AnswerModelError` when the model fails, times out, refuses or answers in the wrong form. */
  answer(query: string, items: readonly EvidenceItem[]): Promise<GeneratedAnswer>;
}

/** The model gave no usable answer (service failure after retries, time-out, refusal, malformed or cut-off answer). */
export class AnswerModelError extends InternalError {
  override readonly name: string = 'AnswerModelError';
  /** Tokens billed before the failure (still charged). */
  readonly tokensUsed: number;

  constructor(message: string, options: { tokensUsed?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.tokensUsed = options.tokensUsed ?? 0;
  }
}
