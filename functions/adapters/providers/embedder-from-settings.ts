/** Embedder settings to embedder: offline word vectors, an OpenAI-compatible endpoint, Amazon Bedrock, or none. */
import type { EmbedderSettings } from '../../config';
import type { Embedder } from '../../engine';
import { BedrockEmbedder } from '../embeddings/bedrock-embedder';
import { OpenAiCompatibleEmbedder } from '../embeddings/openai-embedder';
import { loadWordVectorEmbedder } from '../embeddings/word-vector-loader';
import type { ProviderContext } from './once';

/** The configured embedder (the offline word vectors take a second and ~300 MB: callers make it `once`). */
export function embedderFromSettings(settings: EmbedderSettings, context: ProviderContext): Embedder | null {
  switch (settings.kind) {
    case 'none':
      return null;
    case 'word-vectors':
      return loadWordVectorEmbedder(context.wordVectorCache === false ? { cacheDir: false } : {});
    case 'openai':
      return new OpenAiCompatibleEmbedder({
        baseUrl: settings.url,
        model: settings.model,
        dimensions: settings.dimensions,
        ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
      });
    case 'bedrock':
      return new BedrockEmbedder({
        region: context.region,
        ...(settings.model ? { modelId: settings.model } : {}),
        ...(settings.dimensions ? { dimensions: settings.dimensions } : {}),
      });
  }
}
