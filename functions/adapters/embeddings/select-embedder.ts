/** The configured embedder, made once per container (the offline word vectors take a second and ~300 MB). */
import type { Config } from '../../config';
import { BedrockEmbedder } from './bedrock-embedder';
import type { Embedder } from '../../engine';
import { OpenAiCompatibleEmbedder } from './openai-embedder';
import { loadWordVectorEmbedder } from './word-vectors';

export function embedderFactory(config: Config): () => Embedder | null {
  let made: Embedder | null | undefined;
  return () => {
    made ??= createEmbedder(config);
    return made;
  };
}

function createEmbedder(config: Config): Embedder | null {
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
