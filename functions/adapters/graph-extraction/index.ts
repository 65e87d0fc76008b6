/**
 * Managed graph extraction: per file, the same `FileExtraction` the offline `extractFile` makes (so
 * `mergeFile` resolves it unchanged), made by a language model (OpenAI-compatible or Amazon Bedrock)
 * or Amazon Comprehend, with the tokens used and whether (and why) the offline extractor stood in.
 *
 *   const extractor = createGraphExtractor({ kind: 'bedrock', region, model: 'us.amazon.nova-lite-v1:0' });
 *   const { extraction, tokensUsed, fellBack, reason } = await extractor.extract(file, { schema, factExtraction });
 *   mergeFile(memoryGraph, extraction);
 */
export { BedrockConverseModel, type BedrockConverseModelOptions } from './bedrock-converse';
export { ComprehendGraphExtractor, type ComprehendExtractorOptions } from './comprehend-extractor';
export { createGraphExtractor } from './factory';
export { ModelGraphExtractor, type ModelExtractorOptions } from './model-extractor';
export { OpenAiChatModel } from './openai-chat';
export { GraphExtractionError, type ExtractionContext } from './port';
