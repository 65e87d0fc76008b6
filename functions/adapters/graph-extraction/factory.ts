/**
 * The configured graph extractor from plain settings (functions/config/ reads the environment and
 * hands these over): offline, an OpenAI-compatible endpoint, Amazon Bedrock, or Amazon Comprehend.
 */
import type { LanguageCode } from '@aws-sdk/client-comprehend';
import type { GraphExtractor } from '../../core/ingest/ports';
import { OFFLINE_GRAPH_EXTRACTOR } from '../../core/ingest/memory-graph';
import { BedrockConverseModel } from './bedrock-converse';
import { ComprehendGraphExtractor } from './comprehend-extractor';
import { ModelGraphExtractor } from './model-extractor';
import { OpenAiChatModel } from './openai-chat';
import type { ServiceFailurePolicy } from './service-failure';
import type { RetryPolicy } from './retry';

/** Settings every managed extractor takes. */
interface CommonSettings {
  readonly retry?: RetryPolicy;
  readonly onServiceFailure?: ServiceFailurePolicy;
  /** Requests in flight per file. */
  readonly concurrency?: number;
}

/** Settings of the model extractors. */
interface ModelSettings extends CommonSettings {
  readonly malformedRetries?: number;
  readonly maxCharsPerRequest?: number;
  readonly maxOutputTokens?: number;
}

export type GraphExtractorSettings =
  | { readonly kind: 'offline' }
  | (ModelSettings & {
      readonly kind: 'openai';
      readonly url: string;
      readonly model: string;
      readonly apiKey?: string;
      readonly timeoutMs?: number;
    })
  | (ModelSettings & {
      readonly kind: 'bedrock';
      readonly region: string;
      readonly model: string;
      readonly outputMode?: 'tool' | 'output-format';
      readonly endpoint?: string;
    })
  | (CommonSettings & {
      readonly kind: 'comprehend';
      readonly region: string;
      readonly languageCode?: LanguageCode;
      readonly minScore?: number;
      readonly endpoint?: string;
    });

export function createGraphExtractor(settings: GraphExtractorSettings): GraphExtractor {
  switch (settings.kind) {
    case 'offline':
      return OFFLINE_GRAPH_EXTRACTOR;
    case 'openai': {
      const { kind: _kind, url, model, apiKey, timeoutMs, ...rest } = settings;
      const chat = new OpenAiChatModel({ baseUrl: url, model, ...(apiKey ? { apiKey } : {}), ...(timeoutMs ? { timeoutMs } : {}) });
      return new ModelGraphExtractor({ ...rest, model: chat });
    }
    case 'bedrock': {
      const { kind: _kind, region, model, outputMode, endpoint, ...rest } = settings;
      const converse = new BedrockConverseModel({
        region,
        modelId: model,
        ...(outputMode ? { outputMode } : {}),
        ...(endpoint ? { endpoint } : {}),
      });
      return new ModelGraphExtractor({ ...rest, model: converse });
    }
    case 'comprehend': {
      const { kind: _kind, ...options } = settings;
      return new ComprehendGraphExtractor(options);
    }
  }
}
