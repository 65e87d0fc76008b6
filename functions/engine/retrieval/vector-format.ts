/**
 * Serialised vector segments (magic `KMVX`, format 1, see sections.ts), optionally with the HNSW graph
 * built over them. Sections: `values` (int8 or float32 rows), `scales` (f32 per row) and, with a graph,
 * `levels` (u8 per row), `level0` and `upper` (i32 links). The header holds dimensions, count, encoding,
 * the embedder's name and the graph's `m` and entry point.
 */
import { type HnswIndex, prefixStarts } from './hnsw';
import { bytesOf, readSections, sectionArray, type SectionFile, writeSections } from './section-file';
import type { VectorEncoding, VectorSegment } from './vector-segment';

const VECTOR_FORMAT_VERSION = 1;
const MAGIC = 'KMVX';

interface VectorHeader {
  dimensions: number;
  count: number;
  encoding: VectorEncoding;
  embedder: string | null;
  hnsw: { m: number; entryPoint: number } | null;
}

/** A vector segment with the name of its embedder and its optional ANN graph. */
export interface StoredVectors {
  segment: VectorSegment;
  embedder: string | null;
  ann: HnswIndex | null;
}

export function serializeVectors(stored: StoredVectors): Uint8Array {
  const { segment, ann } = stored;
  const header: VectorHeader = {
    dimensions: segment.dimensions,
    count: segment.count,
    encoding: segment.encoding,
    embedder: stored.embedder,
    hnsw: ann ? { m: ann.m, entryPoint: ann.entryPoint } : null,
  };
  const sections: Record<string, Uint8Array> = { values: bytesOf(segment.values), scales: bytesOf(segment.scales) };
  if (ann) Object.assign(sections, { levels: bytesOf(ann.levels), level0: bytesOf(ann.level0), upper: bytesOf(ann.upperLinks) });
  return writeSections(MAGIC, VECTOR_FORMAT_VERSION, header, sections);
}

export function deserializeVectors(bytes: Uint8Array): StoredVectors {
  const file = readSections(bytes, MAGIC, VECTOR_FORMAT_VERSION);
  const header = parseHeader(file.header);
  const { dimensions, count, encoding } = header;
  const values =
    encoding === 'int8'
      ? sectionArray(file, 'values', (b, o, n) => new Int8Array(b, o, n), 1, count * dimensions)
      : sectionArray(file, 'values', (b, o, n) => new Float32Array(b, o, n), 4, count * dimensions);
  const scales = sectionArray(file, 'scales', (b, o, n) => new Float32Array(b, o, n), 4, count);
  const segment: VectorSegment = { dimensions, count, encoding, values, scales };
  return { segment, embedder: header.embedder, ann: header.hnsw ? readHnsw(file, header.hnsw, count) : null };
}

function readHnsw(file: SectionFile, meta: { m: number; entryPoint: number }, count: number): HnswIndex {
  const levels = sectionArray(file, 'levels', (b, o, n) => new Uint8Array(b, o, n), 1, count);
  const upperStart = prefixStarts(levels);
  const upperSlots = count === 0 ? 0 : (upperStart[count - 1] ?? 0) + (levels[count - 1] ?? 0);
  const level0 = sectionArray(file, 'level0', (b, o, n) => new Int32Array(b, o, n), 4, count * 2 * meta.m);
  const upperLinks = sectionArray(file, 'upper', (b, o, n) => new Int32Array(b, o, n), 4, upperSlots * meta.m);
  for (const link of level0) if (link >= count) throw new Error('Invalid KMVX container: link out of range');
  return { m: meta.m, entryPoint: meta.entryPoint, levels, upperStart, level0, upperLinks };
}

function parseHeader(value: unknown): VectorHeader {
  const header = value as Partial<VectorHeader> | null;
  const valid =
    header !== null &&
    typeof header === 'object' &&
    Number.isInteger(header.dimensions) &&
    Number.isInteger(header.count) &&
    (header.encoding === 'int8' || header.encoding === 'float32');
  if (!valid) throw new Error('Invalid KMVX container: bad header');
  return header as VectorHeader;
}
