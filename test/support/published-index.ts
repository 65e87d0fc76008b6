/**
 * A memory's published index as tests read it: the live chunks of its version (every segment of its
 * manifest, less tombstones), in ordinal order, through the same reader retrieval uses.
 */
import type { Memory } from '../../functions/core/model';
import type { ObjectStore } from '../../functions/core/ports';
import type { StoredChunk } from '../../functions/core/stored-index/chunks';
import { IndexCache, type LoadedIndex } from '../../functions/core/stored-index/index-cache';

export async function publishedIndex(objects: ObjectStore, memory: Memory | undefined): Promise<LoadedIndex | undefined> {
  return memory?.indexPrefix ? new IndexCache(objects, 1).load(memory) : undefined;
}

export async function publishedChunks(objects: ObjectStore, memory: Memory | undefined): Promise<StoredChunk[]> {
  const index = await publishedIndex(objects, memory);
  if (!index) return [];
  return index.retrieval.chunks.ids.flatMap((id) => {
    const chunk = index.chunks.get(id);
    return chunk ? [chunk] : [];
  });
}
