/**
 * What reading memory indexes needs beyond the container: the configured embedder (for queries) and the
 * index cache. Kept out of the container so that API functions that never touch an index stay small; the
 * worker adds the graph extractor (functions/worker/indexing.ts).
 */
import type { Config } from '../config';
import { IndexCache } from '../core/retrieval-cache';
import type { ObjectStore } from '../core/ports';
import { embedderFactory } from './embeddings/select-embedder';

export interface RetrievalIndexing {
  indexing: { embedder: ReturnType<typeof embedderFactory> };
  indexes: IndexCache;
}

export function createRetrievalIndexing(config: Config, objects: ObjectStore): RetrievalIndexing {
  return { indexing: { embedder: embedderFactory(config) }, indexes: new IndexCache(objects, config.indexCacheSize) };
}

const made = new WeakMap<object, RetrievalIndexing>();

/** The retrieval indexing of a container, made once (memory retrieval and message search share its cache). */
export function retrievalIndexingOf(base: { config: Config; objects: ObjectStore }): RetrievalIndexing {
  let indexing = made.get(base);
  if (!indexing) {
    indexing = createRetrievalIndexing(base.config, base.objects);
    made.set(base, indexing);
  }
  return indexing;
}
