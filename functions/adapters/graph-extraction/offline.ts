/**
 * The per-chunk fallback of the managed extractors: the one offline extractor (OFFLINE_GRAPH_EXTRACTOR,
 * functions/core/ingest/memory-graph.ts) over some of a file's chunks, keeping each chunk's position in
 * the file (the offline extractor handles chunks independently, so this equals its answer for the whole
 * file, restricted to those chunks).
 */
import type { ChunkExtraction } from '../../engine/graph';
import type { ExtractionContext } from '../../core/ingest/ports';
import { OFFLINE_GRAPH_EXTRACTOR } from '../../core/ingest/memory-graph';

/** A chunk of a file with its position. */
export interface IndexedChunk {
  readonly id: string;
  readonly index: number;
  readonly text: string;
}

export async function offlineChunks(
  fileId: string,
  chunks: readonly IndexedChunk[],
  context: ExtractionContext,
): Promise<ChunkExtraction[]> {
  const { extraction } = await OFFLINE_GRAPH_EXTRACTOR.extract({ fileId, chunks: chunks.map(({ id, text }) => ({ id, text })) }, context);
  return extraction.chunks.map((chunk, position) => ({ ...chunk, index: chunks[position]?.index ?? chunk.index }));
}
