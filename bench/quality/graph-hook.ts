/**
 * The graph side's hook in the quality harness. The graph library (functions/core/graph/: entities,
 * personalized PageRank over the entity-chunk graph) is being built separately; once it exists,
 * `prepareGraph` builds its graph over the benchmark's chunks and returns, per query, a ranked list
 * of chunk ids with PPR scores. The harness then prints a "graph" row (graph list alone) and a
 * "fused + graph" row (the list passed to `retrieve` as `external`). Until then it returns null and
 * those rows are printed as pending.
 */
import type { ExternalList } from '../../functions/core/retrieval/rank';
import type { RetrievalChunk } from '../../functions/core/retrieval/retrieval-index';

/** Per-query graph list for one benchmark corpus. */
export type GraphRanker = (query: string) => ExternalList;

/** Builds the graph ranker for `chunks`, or null while the graph library is not available. */
export function prepareGraph(chunks: readonly RetrievalChunk[]): GraphRanker | null {
  void chunks;
  return null;
}
