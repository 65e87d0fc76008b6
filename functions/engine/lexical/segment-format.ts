/**
 * The binary form of a lexical segment, format 2. All integers are little-endian.
 *
 * | offset | size | field |
 * |---|---|---|
 * | 0 | 4 | magic `KMLX` |
 * | 4 | 4 | u32 format version (`SEGMENT_FORMAT_VERSION`) |
 * | 8 | 4 | u32 metadata length M (bytes) |
 * | 12 | 16 | u32 doc count D, term count T, file count F, posting bytes P |
 * | 28 | 4 | u32 reserved, 0 |
 * | 32 | M | UTF-8 JSON `{analyzer, languages, docIds, fileIds, terms}`, then zero padding to a multiple of 4 |
 * | … | 4D, 4D, 4T, 4(T+1), P | u32 docFiles, u32 docLengths, u32 docFreqs, u32 postingOffsets, postings |
 *
 * Format 1 (before languages) has no `analyzer.language` and no `languages`: it was analyzed as English,
 * so it loads as `language: 'en'`, `languages: ['en']`, and a rebuild from it analyzes every doc again.
 *
 * Loading is one JSON.parse and one copy of the numeric tail; the typed arrays are views into that
 * copy, and posting lists stay encoded until a query needs them.
 */
import type { AnalyzerLanguage } from './analyzer';
import { isLanguage, type Language } from './language';
import type { LexicalSegment } from './segment';

/** Version of the binary layout written by `serializeSegment`; bump on any change. */
export const SEGMENT_FORMAT_VERSION = 2;
/** Versions `deserializeSegment` reads. */
const READABLE_VERSIONS: ReadonlySet<number> = new Set([1, SEGMENT_FORMAT_VERSION]);

const MAGIC = [0x4b, 0x4d, 0x4c, 0x58]; // "KMLX"
const HEADER_BYTES = 32;
const IS_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

interface SegmentMetadata {
  analyzer: { stem: boolean; stopwords: boolean; language: AnalyzerLanguage };
  languages: Language[];
  docIds: string[];
  fileIds: string[];
  terms: string[];
}

/** Mean doc length, summed in ordinal order so a loaded segment gets the identical value. */
export function meanLength(docLengths: Uint32Array): number {
  let total = 0;
  for (const length of docLengths) total += length;
  return docLengths.length === 0 ? 0 : total / docLengths.length;
}

/** Encodes `segment` in the binary format (see the table above). */
export function serializeSegment(segment: LexicalSegment): Uint8Array {
  assertLittleEndian();
  const metadata: SegmentMetadata = {
    analyzer: { stem: segment.analyzer.stem, stopwords: segment.analyzer.stopwords, language: segment.analyzer.language },
    languages: [...segment.languages],
    docIds: [...segment.docIds],
    fileIds: [...segment.fileIds],
    terms: [...segment.terms],
  };
  const json = new TextEncoder().encode(JSON.stringify(metadata));
  const tailStart = align4(HEADER_BYTES + json.length);
  const arrays = [segment.docFiles, segment.docLengths, segment.docFreqs, segment.postingOffsets];
  const numericBytes = arrays.reduce((sum, array) => sum + array.byteLength, 0);
  const out = new Uint8Array(tailStart + numericBytes + segment.postings.length);
  const header = new DataView(out.buffer);
  out.set(MAGIC, 0);
  const fields = [SEGMENT_FORMAT_VERSION, json.length, segment.docIds.length, segment.terms.length];
  [...fields, segment.fileIds.length, segment.postings.length, 0].forEach((value, index) => header.setUint32(4 + 4 * index, value, true));
  out.set(json, HEADER_BYTES);
  let position = tailStart;
  for (const array of arrays) {
    out.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), position);
    position += array.byteLength;
  }
  out.set(segment.postings, position);
  return out;
}

/** Decodes bytes written by `serializeSegment`; throws on a foreign, truncated or newer format. */
export function deserializeSegment(bytes: Uint8Array): LexicalSegment {
  assertLittleEndian();
  const header = readHeader(bytes);
  const metadata = parseMetadata(bytes.subarray(HEADER_BYTES, HEADER_BYTES + header.metadataLength), header);
  const tail = bytes.slice(align4(HEADER_BYTES + header.metadataLength));
  const { docCount, termCount } = header;
  let position = 0;
  const takeUint32 = (count: number): Uint32Array => {
    const view = new Uint32Array(tail.buffer, position, count);
    position += 4 * count;
    return view;
  };
  const docFiles = takeUint32(docCount);
  const docLengths = takeUint32(docCount);
  const docFreqs = takeUint32(termCount);
  const postingOffsets = takeUint32(termCount + 1);
  const postings = new Uint8Array(tail.buffer, position, header.postingBytes);
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
}

function readHeader(bytes: Uint8Array): Header {
  if (bytes.length < HEADER_BYTES || MAGIC.some((byte, index) => bytes[index] !== byte)) {
    throw formatError('not a lexical segment');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(4, true);
  if (!READABLE_VERSIONS.has(version)) throw formatError(`unsupported format version ${version}`);
  const [metadataLength, docCount, termCount, fileCount, postingBytes] = [8, 12, 16, 20, 24].map((at) => view.getUint32(at, true)) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const header = { version, metadataLength, docCount, termCount, fileCount, postingBytes };
  const expected = align4(HEADER_BYTES + metadataLength) + 4 * (2 * docCount + 2 * termCount + 1) + postingBytes;
  if (bytes.length !== expected) throw formatError(`length ${bytes.length}, expected ${expected}`);
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

function parseMetadata(json: Uint8Array, header: Header): SegmentMetadata {
  const parsed: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(json));
  if (!isRecord(parsed) || !isRecord(parsed.analyzer)) throw formatError('bad metadata');
  const { stem, stopwords } = parsed.analyzer;
  if (typeof stem !== 'boolean' || typeof stopwords !== 'boolean') throw formatError('bad analyzer options');
  const { language, languages } =
    header.version === 1 ? { language: 'en', languages: ['en'] } : { language: parsed.analyzer.language, languages: parsed.languages };
  if (language !== 'auto' && !isLanguage(language)) throw formatError('bad analyzer language');
  if (!Array.isArray(languages) || !languages.every(isLanguage)) throw formatError('bad languages');
  return {
    analyzer: { stem, stopwords, language },
    languages,
    docIds: stringArray(parsed.docIds, header.docCount, 'docIds'),
    fileIds: stringArray(parsed.fileIds, header.fileCount, 'fileIds'),
    terms: stringArray(parsed.terms, header.termCount, 'terms'),
  };
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

function align4(offset: number): number {
  return Math.ceil(offset / 4) * 4;
}

function assertLittleEndian(): void {
  if (!IS_LITTLE_ENDIAN) throw new Error('Lexical segments need a little-endian platform');
}

function formatError(detail: string): Error {
  return new Error(`Invalid lexical segment: ${detail}`);
}
