/**
 * Managed graph extraction behind core's `GraphExtractor` port (functions/core/ingest/memory-graph.ts):
 * per file, the same `FileExtraction` the offline `extractFile` makes (so `mergeFile` resolves it
 * unchanged), made by a language model (OpenAI-compatible or Amazon Bedrock) or Amazon Comprehend, with
 * the tokens used and whether (and why) the offline extractor stood in. The `offline` setting gives
 * core's one OFFLINE_GRAPH_EXTRACTOR, the same one the managed extractors fall back to chunk by chunk.
 * Settings are mapped to an extractor in functions/adapters/providers/graph-extractor-from-settings.ts:
 *
 *   const extractor = graphExtractorFromSettings({ kind: 'bedrock', model: 'us.amazon.nova-lite-v1:0' }, { region });
 *   const { extraction, tokensUsed, fellBack, reason } = await extractor.extract(file, { schema, factExtraction });
 *   mergeFile(memoryGraph, extraction);
 */
export { BedrockConverseModel, type BedrockConverseModelOptions } from './bedrock-converse';
export { ComprehendGraphExtractor, type ComprehendExtractorOptions } from './comprehend-extractor';
export { ModelGraphExtractor, type ModelExtractorOptions } from './model-extractor';
export { OpenAiChatModel } from './openai-chat';
export type { ExtractionContext } from '../../core/ingest/ports';
export { GraphExtractionError } from './service-failure';
