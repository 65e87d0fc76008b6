/**
 * The offline extractor behind the port (no service, no cost), and the per-chunk fallback the
 * managed extractors use: the offline `extractFile` over some of a file's chunks, keeping each chunk's
 * position in the file (the offline extractor handles chunks independently, so this equals its answer
 * for the whole file, restricted to those chunks).
 */
import { type ChunkExtraction, extractFile, type GraphFileInput } from '../../engine/graph';
import type { ExtractionContext, GraphExtractionResult, ManagedGraphExtractor } from './port';

/** A chunk of a file with its position. */
export interface IndexedChunk {
  readonly id: string;
  readonly index: number;
  readonly text: string;
}

export function offlineChunks(fileId: string, chunks: readonly IndexedChunk[], context: ExtractionContext): ChunkExtraction[] {
  const extraction = extractFile({ fileId, chunks: chunks.map(({ id, text }) => ({ id, text })) }, context);
  return extraction.chunks.map((chunk, position) => ({ ...chunk, index: chunks[position]?.index ?? chunk.index }));
}

export class OfflineGraphExtractor implements ManagedGraphExtractor {
  readonly name = 'offline';

  async extract(input: GraphFileInput, context: ExtractionContext): Promise<GraphExtractionResult> {
    return { extraction: extractFile(input, context), tokensUsed: 0, fellBack: false, offlineChunks: input.chunks.length, calls: 0 };
  }
}
