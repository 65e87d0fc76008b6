/**
 * Building one index version of a memory from its chunks, with no I/O: the retrieval index (BM25, vectors,
 * HNSW with `acceleration`) and, for graph memories, the knowledge graph. The worker stores what this
 * returns (memory-index.ts); the quality benchmarks call it directly, so they measure the same build.
 */
import {
  buildRetrievalIndex,
  type Embedder,
  type GraphSnapshot,
  type RetrievalChunk,
  type RetrievalIndex,
  type WordVectors,
} from '../../engine';
import type { Memory } from '../model';
import type { StoredChunk } from '../stored-index/chunks';
import { type BuiltGraph, buildMemoryGraph, type FileTimes, OFFLINE_GRAPH_EXTRACTOR } from './memory-graph';
import type { GraphExtractor } from './ports';
import type { GraphCache } from './graph-cache';
import type { MemoryGraph } from '../../engine/graph';

export interface IndexingSettings {
  embedder: () => Embedder | null;
  /** The graph's word vectors (loaded on first call), or none: entity typing and matching without them. */
  graphWordVectors: () => WordVectors | undefined;
  /** The configured extractor for files entering a graph memory through an ingestion. */
  graphExtractor: () => GraphExtractor;
  /** A warm worker's graphs of the versions it published (graph-cache.ts); none: every build reads the stored graph. */
  graphCache?: GraphCache;
}

export interface GraphInputs {
  previous: GraphSnapshot | undefined;
  /** The previous version's graph as the worker kept it, used instead of `previous` (and changed). */
  cached?: MemoryGraph;
  added: ReadonlyMap<string, readonly StoredChunk[]>;
  /** Whether a source stays in the memory after this build. */
  kept: Pick<ReadonlySet<string>, 'has'>;
  /** Use the configured (possibly paid) extractor; false: the offline one. */
  managed: boolean;
  /** The added files' times, for validity (messages carry their own). */
  fileTimes?: ReadonlyMap<string, FileTimes>;
}

export interface BuiltIndex {
  retrieval: RetrievalIndex;
  graph: BuiltGraph | null;
}

export async function buildIndexVersion(
  memory: Pick<Memory, 'id' | 'memoryType' | 'acceleration' | 'ontology' | 'factExtraction'>,
  chunks: readonly StoredChunk[],
  graphInputs: GraphInputs,
  settings: IndexingSettings,
  previousRetrieval?: RetrievalIndex,
  knownVectors?: ReadonlyMap<string, Float32Array>,
): Promise<BuiltIndex> {
  const embedder = settings.embedder();
  const retrieval = await buildRetrievalIndex(chunks.map(toRetrievalChunk), {
    ...(embedder ? { embedder } : {}),
    ...(knownVectors ? { knownVectors } : {}),
    acceleration: memory.acceleration,
    ...(previousRetrieval ? { previous: previousRetrieval } : {}),
  });
  const extractor = graphInputs.managed ? settings.graphExtractor() : OFFLINE_GRAPH_EXTRACTOR;
  const graph =
    memory.memoryType === 'graph'
      ? await buildMemoryGraph(memory, graphInputs, { wordVectors: settings.graphWordVectors(), extractor })
      : null;
  return { retrieval, graph };
}

export function toRetrievalChunk(chunk: StoredChunk): RetrievalChunk {
  const base = { id: chunk.id, fileId: chunk.fileId, text: chunk.text, title: chunk.title ?? '' };
  // a message is a text of its own, not a range of its session's: no offsets, so no two messages merge
  if (chunk.message) return { ...base, context: chunk.context ?? '' };
  return { ...base, start: chunk.start, end: chunk.end };
}
