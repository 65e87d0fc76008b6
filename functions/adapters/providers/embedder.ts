/** Settings to embedder: offline word vectors, an OpenAI-compatible endpoint, Amazon Bedrock, or none. */
import type { Config } from '../../config';
import type { Embedder } from '../../engine';
import { BedrockEmbedder } from '../embeddings/bedrock-embedder';
import { OpenAiCompatibleEmbedder } from '../embeddings/openai-embedder';
import { loadWordVectorEmbedder } from '../embeddings/word-vector-loader';
import { once } from './once';

/** The configured embedder, made once (the offline word vectors take a second and ~300 MB). */
export function embedderOf(config: Pick<Config, 'embeddings' | 'region'>): () => Embedder | null {
  return once(() => createEmbedder(config));
}

function createEmbedder(config: Pick<Config, 'embeddings' | 'region'>): Embedder | null {
  const settings = config.embeddings;
  switch (settings.kind) {
    case 'none':
      return null;
    case 'word-vectors':
      return loadWordVectorEmbedder();
    case 'openai':
      return new OpenAiCompatibleEmbedder({
        baseUrl: settings.url,
        model: settings.model,
        dimensions: settings.dimensions,
        ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
      });
    case 'bedrock':
      return new BedrockEmbedder({
        region: config.region,
        ...(settings.model ? { modelId: settings.model } : {}),
        ...(settings.dimensions ? { dimensions: settings.dimensions } : {}),
      });
  }
}
