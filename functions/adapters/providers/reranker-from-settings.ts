/** Reranker settings to reranker: none, a Cohere-style `/rerank` endpoint, or Amazon Bedrock's Rerank API. */
import type { RerankerSettings } from '../../config';
import type { Reranker } from '../../core/reranking/ports';
import { BedrockReranker } from '../reranking/bedrock-reranker';
import { OpenAiCompatibleReranker } from '../reranking/openai-reranker';
import type { ProviderContext } from './once';

/** The configured reranker, its SDK client or HTTP settings with it (callers make it `once`). */
export function rerankerFromSettings(settings: RerankerSettings, context: ProviderContext): Reranker | null {
  switch (settings.kind) {
    case 'none':
      return null;
    case 'openai':
      return new OpenAiCompatibleReranker({
        baseUrl: settings.url,
        model: settings.model,
        candidates: settings.candidates,
        timeoutMs: settings.timeoutMs,
        ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
      });
    case 'bedrock':
      return new BedrockReranker({
        region: context.region,
        model: settings.model,
        candidates: settings.candidates,
        timeoutMs: settings.timeoutMs,
        ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      });
  }
}
