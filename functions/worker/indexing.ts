/** What the worker needs to build index versions: the embedder, word-vector setting and graph extractor. */
import { embedderOf } from '../adapters/providers/embedder';
import { graphExtractorOf } from '../adapters/providers/graph-extractor';
import type { Config } from '../config';
import type { IndexingSettings } from '../core/ingest/index-build';

export function createIndexingSettings(config: Config): IndexingSettings {
  return {
    embedder: embedderOf(config),
    graphWordVectors: config.graphWordVectors,
    graphExtractor: graphExtractorOf(config),
  };
}
