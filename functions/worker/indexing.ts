/** What the worker needs to build index versions: the embedder, the graph's word vectors and graph extractor. */
import { embedderFactory } from '../adapters/embeddings/select-embedder';
import { loadGraphWordVectors } from '../adapters/embeddings/word-vectors';
import { createGraphExtractor } from '../adapters/graph-extraction';
import type { Config } from '../config';
import type { IndexingSettings } from '../core/ingest/index-build';
import type { GraphExtractor } from '../core/ingest/memory-graph';

export function createIndexingSettings(config: Config): IndexingSettings {
  let extractor: GraphExtractor | undefined;
  return {
    embedder: embedderFactory(config),
    graphWordVectors: () => (config.graphWordVectors ? loadGraphWordVectors() : undefined),
    graphExtractor: () => (extractor ??= graphExtractorOf(config)),
  };
}

function graphExtractorOf(config: Config): GraphExtractor {
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
