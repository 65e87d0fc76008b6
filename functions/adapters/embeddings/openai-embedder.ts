/**
 * Embedder adapter for any OpenAI-compatible endpoint: `POST {baseUrl}/embeddings` with
 * `{model, input: [texts], dimensions?}` and an optional `Authorization: Bearer` key; the answer's
 * `data[i].embedding` (ordered by `data[i].index`) are the vectors. Texts go in batches; vectors are
 * normalised to unit length. Settings come from the constructor (functions/config/ reads the environment).
 */
import type { Embedder } from '../../engine';
import { batches, EmbedderError, toUnitVector } from './embedding-answers';

export interface OpenAiCompatibleEmbedderOptions {
  /** e.g. `https://api.openai.com/v1` or `http://127.0.0.1:8000/v1` (no trailing `/embeddings`). */
  baseUrl: string;
  model: string;
  dimensions: number;
  apiKey?: string;
  /** Send `dimensions` in the request (models with adjustable size, e.g. text-embedding-3-*). */
  requestDimensions?: boolean;
  /** Texts per request; default 64. */
  batchSize?: number;
  /** Per-request timeout; default 30 s. */
  timeoutMs?: number;
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
}

export class OpenAiCompatibleEmbedder implements Embedder {
  readonly name: string;
  readonly dimensions: number;
  private readonly url: string;

  constructor(private readonly options: OpenAiCompatibleEmbedderOptions) {
    this.dimensions = options.dimensions;
    this.name = `openai-compatible/${options.model}`;
    this.url = `${options.baseUrl.replace(/\/+$/, '')}/embeddings`;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (const batch of batches(texts, this.options.batchSize ?? 64)) out.push(...(await this.embedBatch(batch)));
    return out;
  }

  private async embedBatch(texts: string[]): Promise<Float32Array[]> {
    const { model, apiKey, requestDimensions } = this.options;
    const body = { model, input: texts, ...(requestDimensions ? { dimensions: this.dimensions } : {}) };
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    const doFetch = this.options.fetch ?? fetch;
    let response: Response;
    try {
      response = await doFetch(this.url, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
    } catch (error) {
      throw new EmbedderError(`embeddings request to ${this.url} failed: ${(error as Error).message}`);
    }
    if (!response.ok) {
      const detail = (await response.text().catch(() => '')).slice(0, 200);
      throw new EmbedderError(`embeddings request to ${this.url} answered ${response.status}: ${detail}`);
    }
    return this.parse(await response.json().catch(() => undefined), texts.length);
  }

  private parse(answer: unknown, expected: number): Float32Array[] {
    const data = (answer as { data?: unknown } | undefined)?.data;
    if (!Array.isArray(data) || data.length !== expected) {
      throw new EmbedderError(`embeddings answer from ${this.url} has no data array of ${expected} items`);
    }
    const items = data.map((item: unknown, position) => {
      const { embedding, index } = (item ?? {}) as { embedding?: unknown; index?: unknown };
      return { index: typeof index === 'number' ? index : position, embedding };
    });
    items.sort((a, b) => a.index - b.index);
    return items.map((item) => toUnitVector(item.embedding, this.dimensions, this.url));
  }
}
