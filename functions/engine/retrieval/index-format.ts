/**
 * A whole retrieval index as bytes (magic `KMRI`, format 1, see sections.ts): what ingestion writes to
 * the memory's storage prefix and the retrieval route loads. Sections: `text` and `titles` (lexical
 * segments in their own format), `vectors` (vector-format.ts, with the HNSW graph when built),
 * `starts` and `ends` (i32 chunk offsets). The header holds the chunks' ids, file ids, texts and
 * titles. The title-link table is rebuilt from the titles on load.
 */
import { deserializeSegment, serializeSegment } from '../lexical/segment';
import type { ChunkTable, RetrievalIndex } from './retrieval-index';
import { bytesOf, readSections, sectionArray, writeSections } from './section-file';
import { buildTitleLinks } from './title-links';
import { deserializeVectors, serializeVectors } from './vector-format';

const INDEX_FORMAT_VERSION = 1;
const MAGIC = 'KMRI';

interface IndexHeader {
  ids: string[];
  fileIds: string[];
  texts: string[];
  titles: string[];
}

export function serializeRetrievalIndex(index: RetrievalIndex): Uint8Array {
  const { chunks } = index;
  const header: IndexHeader = { ids: [...chunks.ids], fileIds: [...chunks.fileIds], texts: [...chunks.texts], titles: [...chunks.titles] };
  const sections: Record<string, Uint8Array> = {
    text: serializeSegment(index.text),
    titles: serializeSegment(index.titles),
    starts: bytesOf(chunks.starts),
    ends: bytesOf(chunks.ends),
  };
  if (index.vectors) sections.vectors = serializeVectors({ segment: index.vectors, embedder: index.embedder, ann: index.ann });
  return writeSections(MAGIC, INDEX_FORMAT_VERSION, header, sections);
}

export function deserializeRetrievalIndex(bytes: Uint8Array): RetrievalIndex {
  const file = readSections(bytes, MAGIC, INDEX_FORMAT_VERSION);
  const header = parseHeader(file.header);
  const count = header.ids.length;
  const text = deserializeSegment(requiredSection(file.sections, 'text'));
  const titles = deserializeSegment(requiredSection(file.sections, 'titles'));
  if (text.docIds.length !== count || titles.docIds.length !== count) throw new Error('Invalid KMRI container: segment sizes differ');
  const chunks: ChunkTable = {
    ...header,
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
    links: buildTitleLinks(header.titles, text.analyzer, text.languages),
  };
}

function requiredSection(sections: Map<string, Uint8Array>, name: string): Uint8Array {
  const bytes = sections.get(name);
  if (!bytes) throw new Error(`Invalid KMRI container: no ${name} section`);
  return bytes;
}

function parseHeader(value: unknown): IndexHeader {
  const header = value as Partial<IndexHeader> | null;
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
  return header as IndexHeader;
}
