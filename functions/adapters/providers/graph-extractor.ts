/** Settings to graph extractor: offline, an OpenAI-compatible endpoint, Amazon Bedrock, or Amazon Comprehend. */
import type { Config } from '../../config';
import type { GraphExtractor } from '../../core/ingest/ports';
import { createGraphExtractor } from '../graph-extraction';
import { once } from './once';

/** The configured graph extractor, made once: offline, an OpenAI-compatible endpoint, Bedrock or Comprehend. */
export function graphExtractorOf(config: Pick<Config, 'graphExtractor' | 'region'>): () => GraphExtractor {
  return once(() => createConfiguredGraphExtractor(config));
}

function createConfiguredGraphExtractor(config: Pick<Config, 'graphExtractor' | 'region'>): GraphExtractor {
  const settings = config.graphExtractor;
  switch (settings.kind) {
    case 'offline':
      return createGraphExtractor({ kind: 'offline' });
    case 'comprehend':
      return createGraphExtractor({ kind: 'comprehend', region: config.region });
    case 'bedrock':
      return createGraphExtractor({ kind: 'bedrock', region: config.region, model: settings.model });
    case 'openai':
      return createGraphExtractor({
        kind: 'openai',
        url: settings.url,
        model: settings.model,
        ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
      });
  }
}
