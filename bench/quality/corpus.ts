/**
 * Benchmark documents → retrieval chunks, with the project's chunker and the vector-memory defaults
 * (1,000 characters, 10% overlap). Each chunk carries its document's title and its offsets; the
 * chunk's file id is the document id, so metrics map chunk hits back to documents.
 * SciFact follows BEIR: the text indexed is `title + " " + text`. HippoRAG passages are their text,
 * with the title as the chunk title (indexed in front of the text and as the title field).
 */
import type { RetrievalChunk } from '../../functions/core/retrieval/retrieval-index';
import { chunkText, type ChunkOptions, VECTOR_CHUNK_DEFAULTS } from '../../functions/core/text/chunker';
import type { Benchmark } from './datasets';

export function benchmarkChunks(benchmark: Benchmark, options: ChunkOptions = VECTOR_CHUNK_DEFAULTS): RetrievalChunk[] {
  return benchmark.documents.flatMap((doc) => {
    const text = benchmark.name === 'scifact' ? `${doc.title} ${doc.text}` : doc.text;
    return chunkText(text, options).map((chunk) => ({
      id: `${doc.id}#${chunk.index}`,
      fileId: doc.id,
      text: chunk.text,
      title: doc.title,
      start: chunk.start,
      end: chunk.end,
    }));
  });
}
