/**
 * A whole retrieval index as bytes (magic `KMRI`, section-file.ts): what ingestion writes to a memory's
 * segment and the retrieval route loads. Format 2 keeps what a cold container parses small:
 *
 * - header `{count}`;
 * - `text`, `titles`: the lexical segments (segment-format.ts), written without their doc ids, which are
 *   the chunk ids of `ids`;
 * - `ids`, `fileIds`, `titleTexts`: string tables (string-table.ts), decoded at load;
 * - `texts`: the chunk texts as a text table, decoded one by one when a query returns or reranks a chunk
 *   (`PackedTexts`), never all at load;
 * - `starts`, `ends`: i32 chunk offsets; `vectors` (vector-format.ts, with the HNSW graph when built).
 *
 * Format 1 (still read) held ids, file ids, texts and titles as JSON arrays in the header, and lexical
 * segments with their own doc ids. The title-link table is rebuilt from the titles on load.
 */
import { deserializeSegment, type LexicalSegment, serializeSegment } from '../lexical/segment';
import { decodeStringTable, encodeStringTable, encodeTextTable, PackedTexts, type StringList } from '../lexical/string-table';
import type { ChunkTable, RetrievalIndex } from './retrieval-index';
import { bytesOf, readSections, type SectionFile, sectionArray, writeSections } from './section-file';
import { buildTitleLinks } from './title-links';
import { deserializeVectors, serializeVectors } from './vector-format';

const INDEX_FORMAT_VERSION = 2;
const READABLE_VERSIONS = [1, INDEX_FORMAT_VERSION];
const MAGIC = 'KMRI';

/** Format 1's header: every string of the chunk table as JSON. */
interface HeaderV1 {
  ids: string[];
  fileIds: string[];
  texts: string[];
  titles: string[];
}

/** The chunk table's strings as a reader gets them from either format. */
interface ChunkStrings {
  ids: readonly string[];
  fileIds: readonly string[];
  texts: StringList;
  titles: readonly string[];
}

export function serializeRetrievalIndex(index: RetrievalIndex): Uint8Array {
  const { chunks } = index;
  const sections: Record<string, Uint8Array> = {
    text: serializeSegment(index.text, { sharedDocIds: sameList(index.text.docIds, chunks.ids) }),
    titles: serializeSegment(index.titles, { sharedDocIds: sameList(index.titles.docIds, chunks.ids) }),
    ids: encodeStringTable(chunks.ids),
    fileIds: encodeStringTable(chunks.fileIds),
    titleTexts: encodeStringTable(chunks.titles),
    texts: encodeTextTable(chunks.texts),
    starts: bytesOf(chunks.starts),
    ends: bytesOf(chunks.ends),
  };
  if (index.vectors) sections.vectors = serializeVectors({ segment: index.vectors, embedder: index.embedder, ann: index.ann });
  return writeSections(MAGIC, INDEX_FORMAT_VERSION, { count: chunks.ids.length }, sections);
}

export function deserializeRetrievalIndex(bytes: Uint8Array): RetrievalIndex {
  const file = readSections(bytes, MAGIC, READABLE_VERSIONS);
  const strings = file.version === 1 ? parseHeaderV1(file.header) : readChunkStrings(file);
  const count = strings.ids.length;
  // Format 1's segments hold their own doc ids (the same list); format 2's take the chunk ids.
  const text = lexicalSection(file, 'text', strings.ids);
  const titles = lexicalSection(file, 'titles', strings.ids);
  if (text.docIds.length !== count || titles.docIds.length !== count) throw new Error('Invalid KMRI container: segment sizes differ');
  const chunks: ChunkTable = {
    ...strings,
    starts: sectionArray(file, 'starts', (b, o, n) => new Int32Array(b, o, n), 4, count),
    ends: sectionArray(file, 'ends', (b, o, n) => new Int32Array(b, o, n), 4, count),
  };
  const vectorBytes = file.sections.get('vectors');
  const stored = vectorBytes ? deserializeVectors(vectorBytes) : null;
  if (stored && stored.segment.count !== count) throw new Error('Invalid KMRI container: vector count differs');
  return {
    chunks,
    text,
    titles,
    vectors: stored?.segment ?? null,
    embedder: stored?.embedder ?? null,
    ann: stored?.ann ?? null,
    links: buildTitleLinks(strings.titles, text.analyzer, text.languages),
  };
}

function lexicalSection(file: SectionFile, name: string, ids: readonly string[]): LexicalSegment {
  const bytes = requiredSection(file.sections, name);
  return file.version === 1 ? deserializeSegment(bytes) : deserializeSegment(bytes, ids);
}

/** Format 2's chunk strings, from their sections. */
function readChunkStrings(file: SectionFile): ChunkStrings {
  const count = (file.header as { count?: unknown } | null)?.count;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) throw new Error('Invalid KMRI container: bad header');
  const table = (name: string): string[] => decodeStringTable(requiredSection(file.sections, name), 0, name, count).strings;
  return {
    ids: table('ids'),
    fileIds: table('fileIds'),
    titles: table('titleTexts'),
    texts: new PackedTexts(requiredSection(file.sections, 'texts'), 'texts', count),
  };
}

/** Whether a lexical segment's doc ids are the chunk ids (always, for an index this engine built), so it need not store them. */
function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}

function requiredSection(sections: Map<string, Uint8Array>, name: string): Uint8Array {
  const bytes = sections.get(name);
  if (!bytes) throw new Error(`Invalid KMRI container: no ${name} section`);
  return bytes;
}

function parseHeaderV1(value: unknown): HeaderV1 {
  const header = value as Partial<HeaderV1> | null;
  const isStrings = (list: unknown, length: number): boolean =>
    Array.isArray(list) && list.length === length && list.every((item) => typeof item === 'string');
  const count = Array.isArray(header?.ids) ? header.ids.length : -1;
  if (
    !header ||
    !isStrings(header.ids, count) ||
    !isStrings(header.fileIds, count) ||
    !isStrings(header.texts, count) ||
    !isStrings(header.titles, count)
  ) {
    throw new Error('Invalid KMRI container: bad header');
  }
  return header as HeaderV1;
}
