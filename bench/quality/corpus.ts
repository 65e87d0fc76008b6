/**
 * Benchmark documents → a kmem memory's index, through kmem's own ingestion code (no parallel
 * reimplementation): each document is a file (its id is the file id, its title the file's title) cut by
 * `chunkFile` (functions/core/ingest/file-chunks.ts, what the worker does per file, chunk ids `<fileId>:<n>`),
 * and the index version is built by `buildIndexVersion` (functions/core/ingest/index-build.ts) with the
 * worker's settings: the offline embedder, graph word vectors, the offline graph extractor. A vector
 * memory cuts at its `chunkSize`/`chunkOverlap` (1,000 / 10); a graph memory at the graph defaults and
 * also gets its knowledge graph, whose segment is deserialized as the index cache does.
 * SciFact follows BEIR: a document's text is `title + " " + text`. HippoRAG passages are their text,
 * with the title as the chunk title (indexed in front of the text and as the title field).
 */
import { loadGraphWordVectors } from '../../functions/adapters/embeddings/word-vector-loader';
import { buildGraphSegment, type GraphSegment } from '../../functions/engine/graph/graph-segment';
import { chunkFile } from '../../functions/core/ingest/file-chunks';
import type { StoredChunk } from '../../functions/core/stored-index/chunks';
import { type BuiltIndex, buildIndexVersion } from '../../functions/core/ingest/index-build';
import { OFFLINE_GRAPH_EXTRACTOR } from '../../functions/core/ingest/memory-graph';
import type { Memory } from '../../functions/core/model';
import { newMemory } from '../../functions/core/use-cases/memories';
import type { Embedder } from '../../functions/engine/retrieval/embedder';
import type { RetrievalIndex } from '../../functions/engine/retrieval/retrieval-index';
import type { Benchmark } from './datasets';

/** A memory as the API creates it: a vector memory (1,000 / 10) or a graph memory (culture ontology, no facts). */
export function benchmarkMemory(kind: 'vector' | 'graph', overrides: Partial<Memory> = {}): Memory {
  const identity = { id: `bench-${kind}`, accountId: 'bench', now: new Date(0).toISOString() };
  const input =
    kind === 'graph' ? { name: 'bench graph', memoryType: kind, ontology: 'culture' as const } : { name: 'bench vector', memoryType: kind };
  return { ...newMemory(identity, input), ...overrides };
}

/** Every document's chunks as the worker cuts them for `memory` (file id = document id). */
export function benchmarkChunks(benchmark: Benchmark, memory: Memory = benchmarkMemory('vector')): StoredChunk[] {
  return benchmark.documents.flatMap((doc) => {
    const text = benchmark.name === 'scifact' ? `${doc.title} ${doc.text}` : doc.text;
    return chunkFile(memory, doc.id, text, doc.title);
  });
}

export interface BenchmarkIndex {
  chunks: StoredChunk[];
  built: BuiltIndex;
  /** What `retrieveFromIndex` takes: the retrieval index and, for a graph memory, the deserialized graph. */
  loaded: { retrieval: RetrievalIndex; graph: GraphSegment | null };
  buildMs: number;
}

/** One index version of `memory` over the benchmark, built exactly as the worker builds a first version. */
export async function buildBenchmarkIndex(benchmark: Benchmark, memory: Memory, embedder: Embedder): Promise<BenchmarkIndex> {
  const chunks = benchmarkChunks(benchmark, memory);
  const added = new Map<string, StoredChunk[]>();
  for (const chunk of chunks) {
    const list = added.get(chunk.fileId);
    if (list) list.push(chunk);
    else added.set(chunk.fileId, [chunk]);
  }
  const started = performance.now();
  const built = await buildIndexVersion(
    memory,
    chunks,
    { previous: undefined, added, kept: new Set(benchmark.documents.map((doc) => doc.id)), managed: false },
    { embedder: () => embedder, graphWordVectors: loadGraphWordVectors, graphExtractor: () => OFFLINE_GRAPH_EXTRACTOR },
  );
  const buildMs = performance.now() - started;
  const graph = built.graph ? buildGraphSegment(built.graph.graph.graph) : null;
  return { chunks, built, loaded: { retrieval: built.retrieval, graph }, buildMs };
}
