/**
 * How a file's text is cut for a memory. Chunk ids are `<fileId>:<n>`, so the same file cut the same way
 * always yields the same ids.
 */
import { type ChunkOptions, chunkText, GRAPH_CHUNK_DEFAULTS } from '../../engine';
import type { Memory } from '../model';
import type { StoredChunk } from '../stored-index/chunks';

/** Vector memories use their own chunkSize and chunkOverlap; graph memories the graph defaults. */
function chunkOptionsOf(memory: Memory): ChunkOptions {
  if (memory.memoryType === 'graph' || memory.chunkSize === null) return GRAPH_CHUNK_DEFAULTS;
  return { chunkSize: memory.chunkSize, overlapPercent: memory.chunkOverlap ?? 0 };
}

/** Chunks of a file's text; a page of a sitemap or crawl sits under its parent file, with its own ids. */
export function chunkFile(memory: Memory, fileId: string, text: string, title: string, pageId?: string): StoredChunk[] {
  return chunkText(text, chunkOptionsOf(memory)).map((chunk) => ({
    id: `${pageId ?? fileId}:${chunk.index}`,
    fileId,
    title,
    ...(pageId ? { pageId } : {}),
    text: chunk.text,
    start: chunk.start,
    end: chunk.end,
  }));
}
