/**
 * What an export reads of a memory's built data, independent of how the index is laid out: its chunk
 * records, the vector each chunk was embedded to (with the embedder's name), and the graph's state
 * (entities, relations, facts with their validity, per-source contributions). Every reader of the stored
 * index an export needs is here, so a change of layout (segments) changes this module alone.
 */
import { chunkVector, deserializeRetrievalIndex, type GraphSnapshot } from '../../engine';
import type { Memory } from '../model';
import type { ObjectStore } from '../ports';
import { decodeChunks, type StoredChunk } from '../stored-index/chunks';
import { parseGraphState } from '../stored-index/graph-state';
import { INDEX_FILES } from '../stored-index/index-files';

export interface ChunkVectors {
  embedder: { name: string; dimensions: number } | null;
  /** A chunk's vector by its id; undefined without vectors. */
  of(chunkId: string): Float32Array | undefined;
}

/** The published chunks, in index order; none before the first ingestion. */
export async function publishedChunks(objects: ObjectStore, memory: Memory): Promise<StoredChunk[]> {
  if (!memory.indexPrefix) return [];
  const excluded = new Set(memory.excludedFileIds); // removed sources: never exported
  return decodeChunks(await objects.get(memory.indexPrefix + INDEX_FILES.chunks)).filter((chunk) => !excluded.has(chunk.fileId));
}

/** The published vectors, by chunk id. */
export async function publishedVectors(objects: ObjectStore, memory: Memory): Promise<ChunkVectors> {
  const bytes = memory.indexPrefix ? await objects.get(memory.indexPrefix + INDEX_FILES.retrieval) : undefined;
  const index = bytes ? deserializeRetrievalIndex(bytes) : undefined;
  if (!index?.vectors || !index.embedder) return { embedder: null, of: () => undefined };
  const ordinals = new Map(index.chunks.ids.map((id, ordinal) => [id, ordinal]));
  return {
    embedder: { name: index.embedder, dimensions: index.vectors.dimensions },
    of: (chunkId) => {
      const ordinal = ordinals.get(chunkId);
      return ordinal === undefined ? undefined : chunkVector(index, ordinal);
    },
  };
}

/** A graph memory's published graph state; undefined for a vector memory or before the first ingestion. */
export async function publishedGraph(objects: ObjectStore, memory: Memory): Promise<GraphSnapshot | undefined> {
  if (memory.memoryType !== 'graph' || !memory.indexPrefix) return undefined;
  return parseGraphState(await objects.get(memory.indexPrefix + INDEX_FILES.state));
}

/** A vector as archives carry it: its float32 values (little-endian), base64. */
export function encodeVector(vector: Float32Array): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, i) => bytes.writeFloatLE(value, i * 4));
  return bytes.toString('base64');
}

export function decodeVector(encoded: string): Float32Array {
  const bytes = Buffer.from(encoded, 'base64');
  const vector = new Float32Array(Math.floor(bytes.length / 4));
  for (let i = 0; i < vector.length; i++) vector[i] = bytes.readFloatLE(i * 4);
  return vector;
}
