/**
 * The binary form of a word-vector table, so a process reads the table in one file read instead of scanning the
 * package's 307 MB of JSON (the cache file is kept by functions/adapters/embeddings/word-vector-loader.ts).
 *
 * Layout, little-endian: a 40-byte header (magic `KMWV`, format version, dimensions, row count, the source file's
 * size and mtime in ms as float64, the byte length of the words), then the rows as Float32 (`rows * dimensions`
 * values, already unit length), then the words in row order as one UTF-8 blob, each word followed by a NUL.
 */
import type { WordVectorTable } from './word-vector-table';

/** The JSON file the table was parsed from: a cache is valid only for the same size and mtime. */
export interface WordVectorSource {
  readonly size: number;
  readonly mtimeMs: number;
}

const MAGIC = 0x5657_4d4b; // 'KMWV' read as a little-endian uint32
/** Bump when the layout or the parsing (hence the table's contents) changes. */
const FORMAT_VERSION = 1;
const HEADER_BYTES = 40;
const SEPARATOR = '\u0000';

/** The table in its binary form; undefined when a word holds a NUL (it could not be told apart from the separator). */
export function encodeWordVectorTable(table: WordVectorTable, source: WordVectorSource): Uint8Array | undefined {
  const words = [...table.rows.keys()];
  if (words.some((word) => word.includes(SEPARATOR))) return undefined;
  const wordBytes = new TextEncoder().encode(words.length === 0 ? '' : `${words.join(SEPARATOR)}${SEPARATOR}`);
  const vectorBytes = words.length * table.dimensions * Float32Array.BYTES_PER_ELEMENT;
  const out = new Uint8Array(HEADER_BYTES + vectorBytes + wordBytes.length);
  const header = new DataView(out.buffer);
  header.setUint32(0, MAGIC, true);
  header.setUint32(4, FORMAT_VERSION, true);
  header.setUint32(8, table.dimensions, true);
  header.setUint32(12, words.length, true);
  header.setFloat64(16, source.size, true);
  header.setFloat64(24, source.mtimeMs, true);
  header.setUint32(32, wordBytes.length, true);
  const vectors = table.vectors.subarray(0, words.length * table.dimensions);
  out.set(new Uint8Array(vectors.buffer, vectors.byteOffset, vectorBytes), HEADER_BYTES);
  out.set(wordBytes, HEADER_BYTES + vectorBytes);
  return out;
}

/**
 * The table read back from its binary form, cut to the first `maxWords` rows; undefined when the bytes are not a
 * table of this format version, were made from another source (size or mtime differ) or are truncated.
 */
export function decodeWordVectorTable(
  bytes: Uint8Array,
  source: WordVectorSource,
  maxWords = Number.POSITIVE_INFINITY,
): WordVectorTable | undefined {
  const layout = readLayout(bytes, source);
  if (!layout) return undefined;
  const { dimensions, rowCount, wordByteLength } = layout;
  const vectorBytes = rowCount * dimensions * Float32Array.BYTES_PER_ELEMENT;
  const words = new TextDecoder().decode(bytes.subarray(HEADER_BYTES + vectorBytes, HEADER_BYTES + vectorBytes + wordByteLength));
  const list = words.length === 0 ? [] : words.slice(0, -1).split(SEPARATOR);
  if (list.length !== rowCount) return undefined;
  const kept = Math.min(rowCount, maxWords);
  const rows = new Map<string, number>();
  for (let row = 0; row < kept; row++) rows.set(list[row] ?? '', row);
  if (rows.size !== kept) return undefined; // a repeated word: not a table this encoder wrote
  return { dimensions, rows, vectors: floatView(bytes, HEADER_BYTES, kept * dimensions) };
}

interface Layout {
  dimensions: number;
  rowCount: number;
  wordByteLength: number;
}

/** The header's counts when it is ours, for this source, and the byte length matches them exactly. */
function readLayout(bytes: Uint8Array, source: WordVectorSource): Layout | undefined {
  if (bytes.length < HEADER_BYTES) return undefined;
  const header = new DataView(bytes.buffer, bytes.byteOffset, HEADER_BYTES);
  if (header.getUint32(0, true) !== MAGIC || header.getUint32(4, true) !== FORMAT_VERSION) return undefined;
  if (header.getFloat64(16, true) !== source.size || header.getFloat64(24, true) !== source.mtimeMs) return undefined;
  const layout = {
    dimensions: header.getUint32(8, true),
    rowCount: header.getUint32(12, true),
    wordByteLength: header.getUint32(32, true),
  };
  const expected = HEADER_BYTES + layout.rowCount * layout.dimensions * Float32Array.BYTES_PER_ELEMENT + layout.wordByteLength;
  return layout.dimensions > 0 && bytes.length === expected ? layout : undefined;
}

/** A Float32Array over `bytes` without copying when the offset is aligned (it is for a buffer read from a file). */
function floatView(bytes: Uint8Array, offset: number, length: number): Float32Array {
  const start = bytes.byteOffset + offset;
  if (start % Float32Array.BYTES_PER_ELEMENT === 0) return new Float32Array(bytes.buffer, start, length);
  return new Float32Array(bytes.slice(offset, offset + length * Float32Array.BYTES_PER_ELEMENT).buffer);
}
