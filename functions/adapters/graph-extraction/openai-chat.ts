/**
 * `StructuredModel` over any OpenAI-compatible chat completions endpoint (OpenAI, Azure-style proxies,
 * vLLM, Ollama, LiteLLM…): `POST {baseUrl}/chat/completions` with the system and user messages and
 * `response_format: {type: 'json_schema', json_schema: {name, strict: true, schema}}`, an optional
 * `Authorization: Bearer` key. The answer is `choices[0].message.content` (JSON text; `refusal` when
 * the model declined; `finish_reason: 'length'` when cut off); tokens are `usage.total_tokens`.
 * 429, 408 and 5xx answers, time-outs and connection failures are retryable (Retry-After honoured).
 */
import { z } from 'zod';
import { retryAfterFromHeaders, ServiceCallError } from './retry';
import { estimateCallTokens, type StructuredModel, type StructuredReply, type StructuredRequest } from './structured-model';

export interface OpenAiChatModelOptions {
  /** e.g. `https://api.openai.com/v1` or `http://127.0.0.1:8000/v1` (no trailing `/chat/completions`). */
  readonly baseUrl: string;
  readonly model: string;
  /** The key, or where to get it (read when a request needs it, e.g. from Secrets Manager once per container). */
  readonly apiKey?: string | (() => Promise<string>);
  /** Per-request timeout; default 120 s. */
  readonly timeoutMs?: number;
  /** Sampling temperature; default 0; `null` leaves it out (models that accept only their default). */
  readonly temperature?: number | null;
  /** Name of the output limit field; default `max_tokens` (`max_completion_tokens` for OpenAI reasoning models). */
  readonly maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** Injected for tests; defaults to the global fetch. */
  readonly fetch?: typeof fetch;
}

const completionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({ content: z.string().nullish(), refusal: z.string().nullish() }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: z
    .object({ total_tokens: z.number().nullish(), prompt_tokens: z.number().nullish(), completion_tokens: z.number().nullish() })
    .nullish(),
});

export class OpenAiChatModel implements StructuredModel {
  readonly name: string;
  private readonly url: string;

  constructor(private readonly options: OpenAiChatModelOptions) {
    this.name = `openai-compatible/${options.model}`;
    this.url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  }

  async complete(request: StructuredRequest): Promise<StructuredReply> {
    const response = await this.post(this.body(request));
    const text = await response.text().catch(() => '');
    if (!response.ok) {
      const status = response.status;
      const retryable = status === 429 || status === 408 || status >= 500;
      const retryAfterMs = retryAfterFromHeaders(response.headers);
      throw new ServiceCallError(`chat completions at ${this.url} answered ${status}: ${text.slice(0, 200)}`, {
        retryable,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      });
    }
    const envelope = completionSchema.safeParse(parseJson(text));
    if (!envelope.success) {
      return { content: undefined, tokensUsed: estimateCallTokens(request.system, request.user, text), truncated: false };
    }
    const [choice] = envelope.data.choices;
    const content = choice?.message.content ?? undefined;
    const usage = envelope.data.usage;
    const counted = usage?.total_tokens ?? (usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0);
    const refusal = choice?.message.refusal ?? undefined;
    return {
      content,
      tokensUsed: counted > 0 ? counted : estimateCallTokens(request.system, request.user, content ?? ''),
      truncated: choice?.finish_reason === 'length',
      ...(refusal ? { refusal } : {}),
    };
  }

  private apiKey(): Promise<string | undefined> {
    return keyOf(this.options.apiKey, this.url);
  }

  private body(request: StructuredRequest): Record<string, unknown> {
    const temperature = this.options.temperature === undefined ? 0 : this.options.temperature;
    return {
      model: this.options.model,
      messages: [
        { role: 'system', content: request.system },
        { role: 'user', content: request.user },
      ],
      ...(temperature === null ? {} : { temperature }),
      [this.options.maxTokensField ?? 'max_tokens']: request.maxOutputTokens,
      response_format: { type: 'json_schema', json_schema: { name: request.schemaName, strict: true, schema: request.jsonSchema } },
    };
  }

  private async post(body: Record<string, unknown>): Promise<Response> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const apiKey = await this.apiKey();
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    try {
      return await (this.options.fetch ?? fetch)(this.url, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 120_000),
      });
    } catch (error) {
      throw new ServiceCallError(`chat completions request to ${this.url} failed: ${(error as Error).message}`, {
        retryable: true,
        cause: error,
      });
    }
  }
}

/** The key of the options, read if it is to be read; a failed read is a retryable call failure. */
async function keyOf(apiKey: OpenAiChatModelOptions['apiKey'], url: string): Promise<string | undefined> {
  if (typeof apiKey !== 'function') return apiKey;
  try {
    return await apiKey();
  } catch (error) {
    throw new ServiceCallError(`the key for ${url} could not be read: ${(error as Error).message}`, { retryable: true, cause: error });
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
