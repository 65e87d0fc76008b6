/**
 * The graph side in the quality harness: the graph library (functions/core/graph/) builds a graph
 * memory over the benchmark's chunks, file by file as ingestion does (entities, relations, facts; the
 * `culture` ontology, no word vectors, so the harness loads them once), and each query becomes a
 * personalized PageRank walk from the entities the query names. `GraphRanker` returns the best chunks
 * with their PPR scores: the list the retrieval route passes to `retrieve` as `external`. The harness
 * prints a "graph" row (this list alone) and a "fused + graph" row. `prepareGraph` returns null when
 * asked to skip the graph (`--no-graph`).
 */
import { addFile, buildGraphSegment, createMemoryGraph } from '../../functions/core/graph';
import { personalizedPageRank, topChunks } from '../../functions/core/graph/graph-ppr';
import { linkQueryToEntities } from '../../functions/core/graph/query-link';
import type { ExternalList } from '../../functions/core/retrieval/rank';
import type { RetrievalChunk } from '../../functions/core/retrieval/retrieval-index';

/** Per-query graph list for one benchmark corpus. */
export type GraphRanker = (query: string) => ExternalList;

const GRAPH_CANDIDATES = 100;

/** Builds the graph over `chunks` (grouped by file, in order) and returns its ranker. */
export function prepareGraph(chunks: readonly RetrievalChunk[], enabled = true): GraphRanker | null {
  if (!enabled) return null;
  const memory = createMemoryGraph({ ontology: 'culture', factExtraction: true });
  const byFile = new Map<string, Array<{ id: string; text: string }>>();
  for (const chunk of chunks) {
    const text = chunk.title && !chunk.text.startsWith(chunk.title) ? `${chunk.title}.\n${chunk.text}` : chunk.text;
    byFile.set(chunk.fileId, [...(byFile.get(chunk.fileId) ?? []), { id: chunk.id, text }]);
  }
  for (const [fileId, fileChunks] of byFile) addFile(memory, { fileId, chunks: fileChunks });
  const segment = buildGraphSegment(memory.graph);
  return (query) => {
    const seeds = new Map(linkQueryToEntities(segment, query).map((link) => [link.entity, link.weight] as const));
    if (seeds.size === 0) return { name: 'graph', hits: [] };
    const { chunkScores } = personalizedPageRank(segment, seeds);
    const hits = topChunks(segment, chunkScores, GRAPH_CANDIDATES).map((hit) => ({ chunkId: hit.chunkId, score: hit.score }));
    return { name: 'graph', hits };
  };
}
