/** The objects of one index version (`index/v<n>/`), named in one place for the writer and the readers. */
export const INDEX_FILES = {
  /** Every chunk with its source, title and message details (JSON). */
  chunks: 'chunks.json',
  /** The retrieval index: BM25 segments, vectors, HNSW graph. */
  retrieval: 'retrieval.idx',
  /** Graph memories: the compact graph segment retrieval walks. */
  segment: 'graph.seg',
  /** Graph memories: the graph state the next version starts from (JSON). */
  state: 'graph-state.json',
} as const;
