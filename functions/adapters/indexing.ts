/**
 * What reading memory indexes needs beyond the container: the configured embedder (for queries) and the
 * index cache. Kept out of the container so that API functions that never touch an index stay small; the
 * worker adds the graph extractor (functions/worker/indexing.ts).
 */
import type { Config } from '../config';
import { IndexCache } from '../core/retrieval-cache';
import type { ObjectStore } from '../core/ports';
import { embedderFactory } from './embedder';

export interface RetrievalIndexing {
  indexing: { embedder: ReturnType<typeof embedderFactory> };
  indexes: IndexCache;
}

export function createRetrievalIndexing(config: Config, objects: ObjectStore): RetrievalIndexing {
  return { indexing: { embedder: embedderFactory(config) }, indexes: new IndexCache(objects, config.indexCacheSize) };
}
