/**
 * What an export reads of a memory's built data, independent of how the index is laid out: its chunk
 * records, the vector each chunk was embedded to (with the embedder's name), and the graph's state
 * (entities, relations, facts with their validity, per-source contributions). Every reader of the stored
 * index an export needs is here: the version's manifest, its segments (docs/segments.md), its graph.
 */
import { chunkVector, type GraphSnapshot } from '../../engine';
// the graph surface (worker only): the engine barrel must not carry the graph builder and its NLP model into the API's bundles
import { portableGraphSnapshot } from '../../engine/graph';
import { isExcludedChunk, type Memory } from '../model';
import { objectKeys } from '../object-keys';
import type { ObjectStore } from '../ports';
import type { StoredChunk } from '../stored-index/chunks';
import { readGraphState } from '../stored-index/graph-state';
import { folderOf, readManifest } from '../stored-index/manifest';
import { readSegment } from '../stored-index/segments';

interface ChunkVectors {
  embedder: { name: string; dimensions: number } | null;
  /** A chunk's vector by its id; undefined without vectors. */
  of(chunkId: string): Float32Array | undefined;
}

/** The published version's live chunks, in index order, and their vectors. */
export interface PublishedIndex {
  chunks: StoredChunk[];
  vectors: ChunkVectors;
}

const NO_VECTORS: ChunkVectors = { embedder: null, of: () => undefined };

/**
 * The live chunks of the published version (its manifest's segments, tombstoned chunks left out) and their
 * vectors; nothing before the first ingestion. Vectors come from the segments of the first embedder found
 * (a version mixes embedders only while a whole rebuild is due; the others' chunks go without a vector).
 */
export async function publishedIndex(objects: ObjectStore, memory: Memory): Promise<PublishedIndex> {
  if (!memory.indexPrefix) return { chunks: [], vectors: NO_VECTORS };
  const root = objectKeys.indexRoot(memory.accountId, memory.id);
  const manifest = await readManifest(objects, root, memory.indexPrefix);
  if (!manifest) throw new Error(`index version ${memory.indexPrefix} of memory '${memory.id}' is gone`);
  const excluded = new Set(memory.excludedFileIds); // removed sources: never exported
  const chunks: StoredChunk[] = [];
  const vectorOf = new Map<string, Float32Array>();
  let embedder: ChunkVectors['embedder'] = null;
  for (const entry of manifest.segments) {
    const segment = await readSegment(objects, folderOf(root, entry.id));
    const deleted = new Set(entry.deleted);
    const index = segment.retrieval;
    if (!embedder && index.vectors && index.embedder) embedder = { name: index.embedder, dimensions: index.vectors.dimensions };
    const sameEmbedder = embedder !== null && index.embedder === embedder.name;
    segment.chunks.forEach((chunk, ordinal) => {
      if (deleted.has(ordinal) || isExcludedChunk(excluded, chunk)) return;
      chunks.push(chunk);
      const vector = sameEmbedder ? chunkVector(index, ordinal) : undefined;
      if (vector) vectorOf.set(chunk.id, vector);
    });
  }
  return { chunks, vectors: embedder ? { embedder, of: (chunkId) => vectorOf.get(chunkId) } : NO_VECTORS };
}

/**
 * A graph memory's published graph state in the shape archives carry (version 2 of `GraphSnapshot`, whatever
 * version the index stores); undefined for a vector memory or before the first ingestion.
 */
export async function publishedGraph(objects: ObjectStore, memory: Memory): Promise<GraphSnapshot | undefined> {
  if (memory.memoryType !== 'graph' || !memory.indexPrefix) return undefined;
  const stored = await readGraphState(objects, memory.indexPrefix);
  return stored && portableGraphSnapshot(stored);
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
