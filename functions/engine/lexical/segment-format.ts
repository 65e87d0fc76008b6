/**
 * The binary form of a lexical segment, format 3. All integers are little-endian.
 *
 * | offset | size | field |
 * |---|---|---|
 * | 0 | 4 | magic `KMLX` |
 * | 4 | 4 | u32 format version (`SEGMENT_FORMAT_VERSION`) |
 * | 8 | 4 | u32 metadata length M (bytes) |
 * | 12 | 16 | u32 doc count D, term count T, file count F, posting bytes P |
 * | 28 | 4 | u32 flags: bit 0 set when the doc ids are not stored here (the container holds them) |
 * | 32 | M | UTF-8 JSON `{analyzer, languages, fileIds}`, then zero padding to a multiple of 4 |
 * | … | 4D, 4D, 4T, 4(T+1), P | u32 docFiles, u32 docLengths, u32 docFreqs, u32 postingOffsets, postings |
 * | … | | zero padding to a multiple of 4, the terms' string table, the doc ids' string table (unless flag 0) |
 *
 * String tables: string-table.ts (one UTF-8 decode each, no JSON). A segment inside a retrieval index
 * (index-format.ts) leaves its doc ids to the index, which holds the same list as its chunk ids.
 *
 * Format 2 stored `docIds` and `terms` in the JSON metadata, and no flags. Format 1 (before languages)
 * has no `analyzer.language` and no `languages`: it was analyzed as English, so it loads as
 * `language: 'en'`, `languages: ['en']`, and a rebuild from it analyzes every doc again.
 *
 * Loading is one small JSON.parse, the string tables and one copy of the numeric tail; the typed arrays
 * are views into that copy, and posting lists stay encoded until a query needs them.
 */
import type { AnalyzerLanguage } from './analyzer';
import { isLanguage, type Language } from './language';
import type { LexicalSegment } from './segment';
import { align4, decodeStringTable, encodeStringTable } from './string-table';

/** Version of the binary layout written by `serializeSegment`; bump on any change. */
export const SEGMENT_FORMAT_VERSION = 3;
/** Versions `deserializeSegment` reads. */
const READABLE_VERSIONS: ReadonlySet<number> = new Set([1, 2, SEGMENT_FORMAT_VERSION]);
/** Format 3 flag: the doc ids are held by the container, not stored in the segment. */
const SHARED_DOC_IDS = 1;

const MAGIC = [0x4b, 0x4d, 0x4c, 0x58]; // "KMLX"
const HEADER_BYTES = 32;
const IS_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

interface SegmentMetadata {
  analyzer: { stem: boolean; stopwords: boolean; language: AnalyzerLanguage };
  languages: Language[];
  fileIds: string[];
}

/** The strings format 2 kept in its JSON metadata, format 3 in string tables after the postings. */
interface SegmentStrings {
  docIds: readonly string[];
  terms: readonly string[];
}

export interface SerializeOptions {
  /** Leave the doc ids out: the container (a retrieval index) holds them and hands them to `deserializeSegment`. */
  sharedDocIds?: boolean;
}

/** Mean doc length, summed in ordinal order so a loaded segment gets the identical value. */
export function meanLength(docLengths: Uint32Array): number {
  let total = 0;
  for (const length of docLengths) total += length;
  return docLengths.length === 0 ? 0 : total / docLengths.length;
}

/** Encodes `segment` in the binary format (see the table above). */
export function serializeSegment(segment: LexicalSegment, options: SerializeOptions = {}): Uint8Array {
  assertLittleEndian();
  const metadata: SegmentMetadata = {
    analyzer: { stem: segment.analyzer.stem, stopwords: segment.analyzer.stopwords, language: segment.analyzer.language },
    languages: [...segment.languages],
    fileIds: [...segment.fileIds],
  };
  const json = new TextEncoder().encode(JSON.stringify(metadata));
  const tailStart = align4(HEADER_BYTES + json.length);
  const arrays = [segment.docFiles, segment.docLengths, segment.docFreqs, segment.postingOffsets];
  const numericBytes = arrays.reduce((sum, array) => sum + array.byteLength, 0);
  const tables = [encodeStringTable(segment.terms), ...(options.sharedDocIds ? [] : [encodeStringTable(segment.docIds)])];
  const tablesStart = align4(tailStart + numericBytes + segment.postings.length);
  const out = new Uint8Array(tables.reduce((end, table) => end + table.length, tablesStart));
  const header = new DataView(out.buffer);
  out.set(MAGIC, 0);
  const fields = [SEGMENT_FORMAT_VERSION, json.length, segment.docIds.length, segment.terms.length, segment.fileIds.length];
  const flags = options.sharedDocIds ? SHARED_DOC_IDS : 0;
  [...fields, segment.postings.length, flags].forEach((value, index) => header.setUint32(4 + 4 * index, value, true));
  out.set(json, HEADER_BYTES);
  let position = tailStart;
  for (const array of arrays) {
    out.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), position);
    position += array.byteLength;
  }
  out.set(segment.postings, position);
  position = tablesStart;
  for (const table of tables) {
    out.set(table, position);
    position += table.length;
  }
  return out;
}

/**
 * Decodes bytes written by `serializeSegment`; throws on a foreign, truncated or newer format. A segment
 * written without its doc ids (`sharedDocIds`) takes `docIds` from its container.
 */
export function deserializeSegment(bytes: Uint8Array, docIds?: readonly string[]): LexicalSegment {
  assertLittleEndian();
  const header = readHeader(bytes);
  const parsed = parseMetadata(bytes.subarray(HEADER_BYTES, HEADER_BYTES + header.metadataLength), header);
  // the numbers are read in place when they lie 4-aligned in their buffer (a section of a retrieval index does), else from a copy
  const from = align4(HEADER_BYTES + header.metadataLength);
  const tail = (bytes.byteOffset + from) % 4 === 0 ? bytes.subarray(from) : bytes.slice(from);
  const numericBytes = 4 * (2 * header.docCount + 2 * header.termCount + 1);
  const strings = header.version < 3 ? parsed.strings : readStrings(tail, align4(numericBytes + header.postingBytes), header, docIds);
  const metadata = { ...parsed.metadata, ...strings };
  const { docCount, termCount } = header;
  let position = 0;
  const takeUint32 = (count: number): Uint32Array => {
    const view = new Uint32Array(tail.buffer, tail.byteOffset + position, count);
    position += 4 * count;
    return view;
  };
  const docFiles = takeUint32(docCount);
  const docLengths = takeUint32(docCount);
  const docFreqs = takeUint32(termCount);
  const postingOffsets = takeUint32(termCount + 1);
  const postings = new Uint8Array(tail.buffer, tail.byteOffset + position, header.postingBytes);
  checkOrdinals(docFiles, postingOffsets, header);
  return {
    analyzer: metadata.analyzer,
    languages: metadata.languages,
    docIds: metadata.docIds,
    fileIds: metadata.fileIds,
    docFiles,
    docLengths,
    avgDocLength: meanLength(docLengths),
    terms: metadata.terms,
    docFreqs,
    postingOffsets,
    postings,
  };
}

interface Header {
  version: number;
  metadataLength: number;
  docCount: number;
  termCount: number;
  fileCount: number;
  postingBytes: number;
  flags: number;
}

/** Format 3's string tables: the terms, then the doc ids unless the container holds them. */
function readStrings(tail: Uint8Array, offset: number, header: Header, docIds: readonly string[] | undefined): SegmentStrings {
  const terms = decodeStringTable(tail, offset, 'terms', header.termCount);
  let end = offset + terms.size;
  let ids: readonly string[];
  if (header.flags & SHARED_DOC_IDS) {
    if (!docIds) throw formatError('its doc ids are held by its container, which gave none');
    if (docIds.length !== header.docCount) throw formatError(`${docIds.length} doc ids given for ${header.docCount} docs`);
    ids = docIds;
  } else {
    const stored = decodeStringTable(tail, end, 'docIds', header.docCount);
    ids = stored.strings;
    end += stored.size;
  }
  if (end !== tail.length) throw formatError(`length ${tail.length} after the metadata, expected ${end}`);
  return { docIds: ids, terms: terms.strings };
}

function readHeader(bytes: Uint8Array): Header {
  if (bytes.length < HEADER_BYTES || MAGIC.some((byte, index) => bytes[index] !== byte)) {
    throw formatError('not a lexical segment');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(4, true);
  if (!READABLE_VERSIONS.has(version)) throw formatError(`unsupported format version ${version}`);
  const [metadataLength, docCount, termCount, fileCount, postingBytes, flags] = [8, 12, 16, 20, 24, 28].map((at) =>
    view.getUint32(at, true),
  ) as [number, number, number, number, number, number];
  const header = { version, metadataLength, docCount, termCount, fileCount, postingBytes, flags: version < 3 ? 0 : flags };
  const expected = align4(HEADER_BYTES + metadataLength) + 4 * (2 * docCount + 2 * termCount + 1) + postingBytes;
  // Format 3 goes on with string tables, whose lengths are checked as they are read.
  if (version < 3 ? bytes.length !== expected : bytes.length < expected) throw formatError(`length ${bytes.length}, expected ${expected}`);
  return header;
}

/** Cheap consistency checks, so a corrupt segment fails here and not as wrong results later. */
function checkOrdinals(docFiles: Uint32Array, postingOffsets: Uint32Array, header: Header): void {
  for (const file of docFiles) if (file >= header.fileCount) throw formatError('file ordinal out of range');
  let previous = 0;
  for (const offset of postingOffsets) {
    if (offset < previous) throw formatError('posting offsets decrease');
    previous = offset;
  }
  if (postingOffsets[0] !== 0 || previous !== header.postingBytes) throw formatError('posting offsets do not match');
}

function parseMetadata(json: Uint8Array, header: Header): { metadata: SegmentMetadata; strings: SegmentStrings } {
  const parsed: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(json));
  if (!isRecord(parsed) || !isRecord(parsed.analyzer)) throw formatError('bad metadata');
  const { stem, stopwords } = parsed.analyzer;
  if (typeof stem !== 'boolean' || typeof stopwords !== 'boolean') throw formatError('bad analyzer options');
  const { language, languages } =
    header.version === 1 ? { language: 'en', languages: ['en'] } : { language: parsed.analyzer.language, languages: parsed.languages };
  if (language !== 'auto' && !isLanguage(language)) throw formatError('bad analyzer language');
  if (!Array.isArray(languages) || !languages.every(isLanguage)) throw formatError('bad languages');
  const fileIds = stringArray(parsed.fileIds, header.fileCount, 'fileIds');
  const metadata: SegmentMetadata = { analyzer: { stem, stopwords, language: language as AnalyzerLanguage }, languages, fileIds };
  if (header.version >= 3) return { metadata, strings: { docIds: [], terms: [] } };
  const strings = {
    docIds: stringArray(parsed.docIds, header.docCount, 'docIds'),
    terms: stringArray(parsed.terms, header.termCount, 'terms'),
  };
  return { metadata, strings };
}

function stringArray(value: unknown, length: number, name: string): string[] {
  if (!Array.isArray(value) || value.length !== length || !value.every((item) => typeof item === 'string')) {
    throw formatError(`bad ${name}`);
  }
  return value as string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function assertLittleEndian(): void {
  if (!IS_LITTLE_ENDIAN) throw new Error('Lexical segments need a little-endian platform');
}

function formatError(detail: string): Error {
  return new Error(`Invalid lexical segment: ${detail}`);
}
