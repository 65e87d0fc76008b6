/**
 * What building and reading memory indexes needs beyond the container: the configured embedder and the
 * index cache. Kept out of the container so that API functions that never touch an index stay small.
 */
import type { Config } from '../config';
import { IndexCache } from '../core/retrieval-cache';
import type { ObjectStore } from '../core/ports';
import { embedderFactory } from './embedder';

export interface Indexing {
  indexing: { embedder: ReturnType<typeof embedderFactory>; graphWordVectors: boolean };
  indexes: IndexCache;
}

export function createIndexing(config: Config, objects: ObjectStore): Indexing {
  return {
    indexing: { embedder: embedderFactory(config), graphWordVectors: config.graphWordVectors },
    indexes: new IndexCache(objects, config.indexCacheSize),
  };
}
