/**
 * A memory's retrieval index: its chunks, a BM25 segment over title + text, a BM25 segment over titles
 * alone, the chunk vectors (when an embedder is configured) and, with `acceleration`, an HNSW graph
 * over them. Chunks are numbered 0..n-1 ("ordinals") in build order in every part.
 *
 * Titles: a chunk's title (its document's title or file name) is indexed twice: prefixed to the text
 * (unless the text already starts with it) and as its own field, which ranking adds with a small
 * weight. The title-link table (title-links.ts) is derived from the titles, so it is rebuilt on load.
 */
import { type AnalyzerLanguage, type AnalyzerOptions, resolveAnalyzerOptions } from '../lexical/analyzer';
import { detectLanguages, type Language } from '../lexical/language';
import { buildSegment, type LexicalSegment } from '../lexical/segment';
import type { StringList } from '../lexical/string-table';
import type { Embedder } from './embedder';
import { buildHnsw, type HnswIndex, type HnswOptions } from './hnsw';
import { buildTitleLinks, type TitleLinkTable } from './title-links';
import type { ComposedVectors } from './vector-parts';
import { buildVectorSegment, rowVector, type VectorEncoding, type VectorSegment } from './vector-segment';

/** A chunk to index. */
export interface RetrievalChunk {
  /** Unique within the index. */
  id: string;
  /** The file (document) the chunk comes from. */
  fileId: string;
  /** The chunk's text: what a payload item returns. */
  text: string;
  /** The document's title or file name, if any. */
  title?: string;
  /**
   * Text indexed with the chunk (lexical and semantic) but never returned: for a conversation message,
   * its session's date and the turns just before it (functions/core/ingest/conversation-chunks.ts).
   */
  context?: string;
  /** Character offsets of the chunk in its file's text (from the chunker), for overlap merging. */
  start?: number;
  end?: number;
}

/** The chunks' own data, by ordinal. */
export interface ChunkTable {
  readonly ids: readonly string[];
  readonly fileIds: readonly string[];
  /** Read with `at(ordinal)`: a loaded index decodes a text when it is asked for (index-format.ts). */
  readonly texts: StringList;
  readonly titles: readonly string[];
  /** Offsets in the file's text; -1 when unknown. */
  readonly starts: Int32Array;
  readonly ends: Int32Array;
}

export interface RetrievalIndex {
  readonly chunks: ChunkTable;
  /** BM25 over title + text; doc ordinals are chunk ordinals, its files are the chunks' files. */
  readonly text: LexicalSegment;
  /** BM25 over titles alone. */
  readonly titles: LexicalSegment;
  readonly vectors: VectorSegment | null;
  /** Name of the embedder that made `vectors` (queries must use the same). */
  readonly embedder: string | null;
  readonly ann: HnswIndex | null;
  readonly links: TitleLinkTable;
  /**
   * A composed index with no HNSW graph of its own: its segments' graphs, searched one by one and their
   * hits merged (merge-index.ts).
   */
  readonly annParts?: readonly AnnPart[];
  /**
   * A composed index's vectors where they are, in its segments (vector-parts.ts): what queries search and
   * score. Its `vectors` are then one table of the same rows, copied only if something reads it.
   */
  readonly vectorParts?: ComposedVectors;
}

/** One segment's HNSW graph over its own vectors, with its rows' ordinals in the composed index (-1: deleted). */
export interface AnnPart {
  readonly ann: HnswIndex;
  readonly vectors: VectorSegment;
  readonly ordinals: Int32Array;
  readonly deleted: number;
}

export interface BuildOptions {
  /** Embeds chunks for the semantic side; without it the index is lexical only. */
  embedder?: Embedder;
  /** Build an HNSW graph for approximate vector search (the memory's `acceleration`). */
  acceleration?: boolean;
  hnsw?: HnswOptions;
  vectorEncoding?: VectorEncoding;
  /** Lexical analyzer options (default: stemming and stopwords on). */
  analyzer?: AnalyzerOptions;
  /** Texts per embedder call; default 256. */
  embedBatchSize?: number;
  /**
   * An earlier build of the same memory: a chunk it holds with the same id, text and title keeps its vector
   * and its analyzed terms (only the other chunks are embedded and analyzed).
   */
  previous?: RetrievalIndex;
  /** Vectors by chunk id made by this embedder before (a restored archive's): kept, not embedded again. */
  knownVectors?: ReadonlyMap<string, Float32Array>;
}

/** The text that is indexed (lexical and semantic) for a chunk: title, then context, then text. */
function indexedText(text: string, title: string, context = ''): string {
  const body = context ? `${context}\n${text}` : text;
  if (!title || text.startsWith(title)) return body;
  return `${title}\n${body}`;
}

/** Builds the index of `chunks` (ids must be distinct). */
export async function buildRetrievalIndex(chunks: readonly RetrievalChunk[], options: BuildOptions = {}): Promise<RetrievalIndex> {
  const table = chunkTable(chunks);
  const texts = chunks.map((chunk, ordinal) => indexedText(chunk.text, table.titles[ordinal] ?? '', chunk.context));
  const previous = options.previous;
  const same = previous ? unchangedChunks(chunks, table, previous) : new Map<number, number>();
  const languages = chunkLanguages(texts, resolveAnalyzerOptions(options.analyzer).language, same, previous);
  const text = buildSegment(
    chunks.map((chunk, ordinal) => ({ id: chunk.id, fileId: chunk.fileId, text: texts[ordinal] ?? '', language: languages[ordinal] })),
    options.analyzer,
    previous && { previous: previous.text, ordinals: same },
  );
  // A title is analyzed in its chunk's language (a title alone is too short to detect it).
  const titles = buildSegment(
    chunks.map((chunk, ordinal) => ({
      id: chunk.id,
      fileId: chunk.fileId,
      text: table.titles[ordinal] ?? '',
      language: languages[ordinal],
    })),
    text.analyzer,
    previous && { previous: previous.titles, ordinals: same },
  );
  const reused = new Map([...knownRows(chunks, options), ...reusedRows(same, options)]);
  const vectors = options.embedder ? await embedAll(options.embedder, texts, options, reused) : null;
  const ann = vectors && options.acceleration ? buildHnsw(vectors, options.hnsw) : null;
  const links = buildTitleLinks(table.titles, text.analyzer, text.languages);
  return { chunks: table, text, titles, vectors, embedder: options.embedder?.name ?? null, ann, links };
}

/**
 * Embeds the texts (batches of `embedBatchSize`), except those whose vector `reused` holds (by ordinal):
 * a publish that changes a few files of a large memory embeds only their chunks (with a paid embedder, that
 * is the bill).
 */
async function embedAll(
  embedder: Embedder,
  texts: string[],
  options: BuildOptions,
  reused: ReadonlyMap<number, Float32Array>,
): Promise<VectorSegment> {
  const vectors: Float32Array[] = texts.map((_, ordinal) => reused.get(ordinal) ?? EMPTY);
  const missing = texts.flatMap((_, ordinal) => (reused.has(ordinal) ? [] : [ordinal]));
  const size = options.embedBatchSize ?? 256;
  for (let start = 0; start < missing.length; start += size) {
    const batch = missing.slice(start, start + size);
    const embedded = await embedder.embed(batch.map((ordinal) => texts[ordinal] ?? ''));
    batch.forEach((ordinal, i) => (vectors[ordinal] = embedded[i] ?? EMPTY));
  }
  return buildVectorSegment(vectors, embedder.dimensions, options.vectorEncoding);
}

const EMPTY = new Float32Array(0);

/**
 * The chunks the previous build holds as they are, new ordinal → previous ordinal: the same id, text and
 * title and no context (a message's context is not stored, so it is indexed again).
 */
function unchangedChunks(chunks: readonly RetrievalChunk[], table: ChunkTable, previous: RetrievalIndex): Map<number, number> {
  const same = new Map<number, number>();
  const ordinals = new Map(previous.chunks.ids.map((id, ordinal) => [id, ordinal]));
  chunks.forEach((chunk, ordinal) => {
    const before = ordinals.get(chunk.id);
    if (before === undefined || chunk.context) return;
    if (previous.chunks.texts.at(before) !== chunk.text || previous.chunks.titles[before] !== table.titles[ordinal]) return;
    same.set(ordinal, before);
  });
  return same;
}

/**
 * The language each chunk is analyzed in: the setting, else detected over the chunks. When the previous
 * build with the same setting held one language, its unchanged chunks keep it undetected (a publish that
 * changes a few files of a large memory detects only their chunks), and it is the language of new chunks
 * that show none.
 */
function chunkLanguages(
  texts: readonly string[],
  setting: AnalyzerLanguage,
  same: ReadonlyMap<number, number>,
  previous: RetrievalIndex | undefined,
): Language[] {
  if (setting !== 'auto') return texts.map(() => setting);
  const only = previous?.text.analyzer.language === 'auto' && previous.text.languages.length === 1 ? previous.text.languages[0] : undefined;
  if (only === undefined) return detectLanguages(texts);
  const fresh = texts.flatMap((text, ordinal) => (same.has(ordinal) ? [] : [text]));
  const detected = detectLanguages(fresh, only);
  let next = 0;
  return texts.map((_, ordinal) => (same.has(ordinal) ? only : (detected[next++] ?? only)));
}

/**
 * The previous build's vectors this build may keep, by ordinal: unchanged chunks, embedded by the same
 * embedder with the same dimensions. Int8 rows are dequantised and quantised again to the same bytes.
 */
function reusedRows(same: ReadonlyMap<number, number>, options: BuildOptions): Map<number, Float32Array> {
  const previous = options.previous;
  const reused = new Map<number, Float32Array>();
  const segment = previous?.vectors;
  if (!previous || !segment || previous.embedder !== options.embedder?.name || segment.dimensions !== options.embedder.dimensions)
    return reused;
  for (const [ordinal, before] of same) reused.set(ordinal, rowVector(segment, before));
  return reused;
}

/** Known vectors of the right length, by the ordinal of their chunk. */
function knownRows(chunks: readonly RetrievalChunk[], options: BuildOptions): Map<number, Float32Array> {
  const rows = new Map<number, Float32Array>();
  const known = options.knownVectors;
  if (!known || !options.embedder) return rows;
  const dimensions = options.embedder.dimensions;
  chunks.forEach((chunk, ordinal) => {
    const vector = known.get(chunk.id);
    if (vector?.length === dimensions) rows.set(ordinal, vector);
  });
  return rows;
}

/** Whether the index holds vectors (without copying a composed index's into one table). */
export const hasVectors = (index: RetrievalIndex): boolean => index.vectorParts !== undefined || index.vectors !== null;

/** The vector the index holds for a chunk (by ordinal), as floats; undefined without vectors. */
export function chunkVector(index: RetrievalIndex, ordinal: number): Float32Array | undefined {
  return index.vectors ? rowVector(index.vectors, ordinal) : undefined;
}

function chunkTable(chunks: readonly RetrievalChunk[]): ChunkTable {
  return {
    ids: chunks.map((chunk) => chunk.id),
    fileIds: chunks.map((chunk) => chunk.fileId),
    texts: chunks.map((chunk) => chunk.text),
    titles: chunks.map((chunk) => chunk.title?.trim() ?? ''),
    starts: Int32Array.from(chunks, (chunk) => chunk.start ?? -1),
    ends: Int32Array.from(chunks, (chunk) => chunk.end ?? -1),
  };
}
