/**
 * The knowledge graph of a graph memory, built beside each index version: the previous version's graph
 * state (a snapshot) is restored, sources that left the memory are removed (their entities, relations and
 * facts go when nothing else supports them), changed sources are added again, and the next version gets
 * the new snapshot and the compact segment retrieval walks.
 */
import {
  addFile,
  buildGraphSegment,
  createMemoryGraph,
  type GraphSnapshot,
  graphInvariantViolations,
  loadGraphWordVectors,
  type MemoryGraph,
  removeFile,
  restoreMemoryGraph,
  serializeGraphSegment,
  snapshotGraph,
  type WordVectors,
} from '../graph';
import type { Memory } from '../model';
import type { StoredChunk } from './chunks';

export interface GraphCounts {
  entities: number;
  relations: number;
  facts: number;
}

export interface BuiltGraph {
  segment: Uint8Array;
  state: string;
  counts: GraphCounts;
}

export interface GraphChanges {
  previous: GraphSnapshot | undefined;
  /** Sources whose chunks are (re)added, with those chunks. */
  added: ReadonlyMap<string, readonly StoredChunk[]>;
  /** Every source the memory holds after this build. */
  kept: ReadonlySet<string>;
}

export function buildMemoryGraph(memory: Memory, changes: GraphChanges, useWordVectors: boolean): BuiltGraph {
  const vectors = useWordVectors ? loadGraphWordVectors() : undefined;
  const graph = startingGraph(memory, changes.previous, vectors);
  for (const fileId of [...graph.graph.files.keys()]) {
    if (!changes.kept.has(fileId) || changes.added.has(fileId)) removeFile(graph, fileId);
  }
  for (const [fileId, chunks] of changes.added) {
    if (chunks.length) addFile(graph, { fileId, chunks: chunks.map((chunk) => ({ id: chunk.id, text: chunk.text })) });
  }
  const problems = graphInvariantViolations(graph.graph);
  if (problems.length) throw new Error(`graph of memory ${memory.id} is inconsistent: ${problems.slice(0, 3).join('; ')}`);
  return {
    segment: serializeGraphSegment(buildGraphSegment(graph.graph)),
    state: JSON.stringify(snapshotGraph(graph.graph)),
    counts: { entities: graph.graph.entities.size, relations: graph.graph.relations.size, facts: graph.graph.facts.size },
  };
}

function startingGraph(memory: Memory, previous: GraphSnapshot | undefined, vectors: WordVectors | undefined): MemoryGraph {
  const settings = { factExtraction: memory.factExtraction, ...(vectors ? { vectors } : {}) };
  if (previous) return restoreMemoryGraph(previous, settings);
  return createMemoryGraph({ ...settings, ontology: memory.ontology ?? 'essays' });
}
