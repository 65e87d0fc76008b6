/**
 * What reading memory indexes needs beyond the container: the configured embedder (for queries) and the
 * index cache, made once per container by the functions that read indexes (messages, retrieval). Kept out of the container so that API functions that never touch an index stay small; the
 * worker adds the graph extractor (functions/worker/indexing.ts).
 */
import type { Config } from '../config';
import { IndexCache } from '../core/stored-index/index-cache';
import type { ObjectStore } from '../core/ports';
import type { Embedder } from '../engine';
import { embedderFromSettings } from './providers/embedder-from-settings';
import { once } from './providers/once';
import type { VectorTierSetup } from '../core/vector-tier/ports';
import { vectorTierSetupFromSettings } from './providers/vector-tier-setup';

export interface RetrievalIndexing {
  indexing: { embedder: () => Embedder | null };
  indexes: IndexCache;
  /** The vector tier, when the stage turns it on: a tiered memory's vector candidates come from it. */
  vectors?: VectorTierSetup;
}

export function createRetrievalIndexing(config: Config, objects: ObjectStore): RetrievalIndexing {
  return {
    indexing: { embedder: once(() => embedderFromSettings(config.embeddings, config)) },
    indexes: new IndexCache(objects, config.indexCacheSize),
    ...vectorTierOf(config),
  };
}

/** The vector tier's deps, when the stage turns it on. */
export function vectorTierOf(config: Config): { vectors?: VectorTierSetup } {
  const vectors = vectorTierSetupFromSettings(config.vectorTier, config);
  return vectors ? { vectors } : {};
}

/** A function's deps plus the retrieval indexing made from its settings (memory retrieval, message search). */
export function withRetrievalIndexing<D extends { config: Config; objects: ObjectStore }>(base: D): D & RetrievalIndexing {
  return { ...base, ...createRetrievalIndexing(base.config, base.objects) };
}
