/**
 * The objects of one index version (`index/v<n>-<uuid>/`) and of one segment (`index/s<n>-<uuid>/`),
 * named in one place for the writer and the readers. See docs/segments.md.
 */
export const INDEX_FILES = {
  /** A version: the segments it is made of and their tombstones (manifest.ts). */
  manifest: 'manifest.json',
  /** A segment: its chunks with their source, title and message details (JSON). */
  chunks: 'chunks.json',
  /** A segment: its retrieval index (BM25 segments, vectors, HNSW graph). */
  retrieval: 'retrieval.idx',
  /** A segment: its sources and the ordinal ranges of their chunks (JSON), read by the next build. */
  files: 'files.json',
  /** A version of a graph memory: the compact graph segment retrieval walks, whole (a chain's base; before segment deltas, every version). */
  segment: 'graph.seg',
  /** A version of a graph memory: what its build changed in the graph segment (JSON; manifest `graph` names its base). */
  segmentDelta: 'graph-seg-delta.json',
  /** A version of a graph memory: the graph state the next version starts from (JSON), a base of later deltas. */
  state: 'graph-state.json',
  /** A version of a graph memory: what its build changed in the graph (JSON; manifest `graph` names its base). */
  delta: 'graph-delta.json',
} as const;
