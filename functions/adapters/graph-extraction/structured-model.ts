/**
 * The narrow port a language model adapter implements for extraction: one request with instructions,
 * text and a JSON schema in; the raw answer and the tokens it consumed out. Adapters: OpenAI-compatible
 * chat completions (`openai-chat.ts`), Amazon Bedrock Converse (`bedrock-converse.ts`). Validation,
 * retries of malformed answers and the offline fallback live in `model-extractor.ts`.
 */

export interface StructuredRequest {
  readonly system: string;
  readonly user: string;
  /** Name of the answer schema (OpenAI `json_schema.name`, Bedrock tool name). */
  readonly schemaName: string;
  /** What the answer records (the Bedrock tool's description); graph extraction's when absent. */
  readonly schemaDescription?: string;
  readonly jsonSchema: Readonly<Record<string, unknown>>;
  readonly maxOutputTokens: number;
}

export interface StructuredReply {
  /** The answer: JSON text, or a value the service already parsed (a Bedrock tool input). */
  readonly content: unknown;
  /** Tokens billed for the call (prompt and completion); estimated when the service did not say. */
  readonly tokensUsed: number;
  /** The model stopped at the output limit: the answer is cut off. */
  readonly truncated: boolean;
  /** The model declined to answer, with its words. */
  readonly refusal?: string;
}

export interface StructuredModel {
  /** "openai-compatible/<model>", "bedrock/<model>". */
  readonly name: string;
  /** One request, no retries; throws `ServiceCallError` (retryable or not) when the service fails. */
  complete(request: StructuredRequest): Promise<StructuredReply>;
}

/** Tokens of a call the service did not count: UTF-8 bytes / 2.5, the budget's over-estimate (`engine/text/tokens.ts`). */
export function estimateCallTokens(...texts: string[]): number {
  const bytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text, 'utf8'), 0);
  return Math.ceil(bytes / 2.5);
}
