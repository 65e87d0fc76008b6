/**
 * Graph extractor settings to graph extractor: offline (core's one OFFLINE_GRAPH_EXTRACTOR), an
 * OpenAI-compatible endpoint, Amazon Bedrock, or Amazon Comprehend.
 */
import type { GraphExtractorSettings } from '../../config';
import type { GraphExtractor } from '../../core/ingest/ports';
import { OFFLINE_GRAPH_EXTRACTOR } from '../../core/ingest/memory-graph';
import { BedrockConverseModel } from '../graph-extraction/bedrock-converse';
import { ComprehendGraphExtractor } from '../graph-extraction/comprehend-extractor';
import { ModelGraphExtractor, type ModelExtractorOptions } from '../graph-extraction/model-extractor';
import { OpenAiChatModel } from '../graph-extraction/openai-chat';
import type { ProviderContext } from './once';

/**
 * How a managed extractor retries, fails and batches; the defaults unless given (tests and benchmarks
 * tune them). Comprehend takes `retry`, `onServiceFailure` and `concurrency`; the model extractors all.
 */
export type GraphExtractorTuning = Omit<ModelExtractorOptions, 'model'>;

/** The configured graph extractor (callers make it `once`). */
export function graphExtractorFromSettings(
  settings: GraphExtractorSettings,
  context: ProviderContext,
  tuning: GraphExtractorTuning = {},
): GraphExtractor {
  switch (settings.kind) {
    case 'offline':
      return OFFLINE_GRAPH_EXTRACTOR;
    case 'openai': {
      const { url, model, apiKey } = settings;
      return new ModelGraphExtractor({ ...tuning, model: new OpenAiChatModel({ baseUrl: url, model, ...(apiKey ? { apiKey } : {}) }) });
    }
    case 'bedrock':
      return new ModelGraphExtractor({ ...tuning, model: new BedrockConverseModel({ region: context.region, modelId: settings.model }) });
    case 'comprehend': {
      const { retry, onServiceFailure, concurrency } = tuning;
      return new ComprehendGraphExtractor({ region: context.region, retry, onServiceFailure, concurrency });
    }
  }
}
