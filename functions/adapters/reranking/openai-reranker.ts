/**
 * Reranker adapter for any Cohere-style rerank endpoint (Cohere, Jina, Voyage, vLLM, TEI, LiteLLM and
 * other OpenAI-compatible servers): `POST {baseUrl}/rerank` with `{model, query, documents, top_n}` and an
 * optional `Authorization: Bearer` key; the answer's `results: [{index, relevance_score}]` score the
 * documents by their position. One request, no retry: a reranker that fails or is slower than
 * `timeoutMs` leaves the fused order (core/reranking/candidate-rerank.ts).
 */
import { RerankerError, type Relevance, type Reranker } from '../../core/reranking/ports';
import { checkedRelevance } from './relevance-answers';

export interface OpenAiCompatibleRerankerOptions {
  /** e.g. `https://api.cohere.com/v2` or `http://127.0.0.1:8000/v1` (no trailing `/rerank`). */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** The best fused candidates handed over at most. */
  candidates: number;
  timeoutMs: number;
}

export class OpenAiCompatibleReranker implements Reranker {
  readonly name: string;
  readonly candidates: number;
  private readonly url: string;

  constructor(private readonly options: OpenAiCompatibleRerankerOptions) {
    this.name = `openai-compatible/${options.model}`;
    this.candidates = options.candidates;
    this.url = `${options.baseUrl.replace(/\/+$/, '')}/rerank`;
  }

  async rerank(query: string, texts: readonly string[]): Promise<readonly Relevance[]> {
    if (texts.length === 0) return [];
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    const body = JSON.stringify({ model: this.options.model, query, documents: texts, top_n: texts.length });
    let response: Response;
    try {
      response = await fetch(this.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(this.options.timeoutMs) });
    } catch (error) {
      throw new RerankerError(`rerank request to ${this.url} failed: ${(error as Error).message}`, { cause: error });
    }
    if (!response.ok) {
      const detail = (await response.text().catch(() => '')).slice(0, 200);
      throw new RerankerError(`rerank request to ${this.url} answered ${response.status}: ${detail}`);
    }
    const answer = (await response.json().catch(() => undefined)) as { results?: unknown } | undefined;
    return checkedRelevance(answer?.results, texts.length, `rerank endpoint ${this.url}`, {
      index: (result) => result.index,
      score: (result) => result.relevance_score,
    });
  }
}
