/**
 * One immutable segment of a memory's index as stored (`index/s<n>-<uuid>/`): its chunk records
 * (`chunks.json`), its retrieval index (`retrieval.idx`) and its table of sources (`files.json`: each
 * source's chunk ordinal ranges), which is all a later build reads of it to mark a replaced or removed
 * source's chunks deleted. Never rewritten: a merge writes a new segment (docs/segments.md).
 */
import { deserializeRetrievalIndex, type RetrievalIndex, serializeRetrievalIndex } from '../../engine';
import { type ChunkRecord, decodeChunks, type StoredChunk } from './chunks';
import { settleAll } from '../concurrency';
import { INDEX_FILES } from './index-files';
import type { ObjectStore } from '../ports';
import { PerIndexLru } from './per-index-lru';
import { decodeSegmentRecords, encodeSegmentRecords } from './segment-records';

/** Source id → its chunks' ordinal ranges in the segment, flattened: [start, end, start, end, …] (end excluded). */
export type SegmentFiles = ReadonlyMap<string, readonly number[]>;

export interface LoadedSegment {
  retrieval: RetrievalIndex;
  /** Chunk records by ordinal. */
  chunks: readonly StoredChunk[];
}

/** A segment as queries read it: its records without their texts (live-chunks.ts fills one in when its chunk is asked for). */
export interface QueriedSegment {
  retrieval: RetrievalIndex;
  /** Chunk records by ordinal; `retrieval.chunks.texts` holds their texts (same ordinals). */
  chunks: readonly ChunkRecord[];
}

/** The sources of `chunks` (by ordinal) and their ordinal ranges. */
function filesOf(chunks: readonly Pick<StoredChunk, 'fileId'>[]): Map<string, number[]> {
  const files = new Map<string, number[]>();
  chunks.forEach((chunk, ordinal) => {
    const ranges = files.get(chunk.fileId) ?? [];
    if (ranges.length > 0 && ranges[ranges.length - 1] === ordinal) ranges[ranges.length - 1] = ordinal + 1;
    else ranges.push(ordinal, ordinal + 1);
    files.set(chunk.fileId, ranges);
  });
  return files;
}

/** Every ordinal of the ranges. */
export function* ordinalsOf(ranges: readonly number[]): Generator<number> {
  for (let i = 0; i + 1 < ranges.length; i += 2)
    for (let ordinal = ranges[i] ?? 0; ordinal < (ranges[i + 1] ?? 0); ordinal++) yield ordinal;
}

/** Writes a segment's objects under `prefix`; answers the bytes written. */
export async function writeSegment(
  objects: ObjectStore,
  prefix: string,
  chunks: readonly StoredChunk[],
  retrieval: RetrievalIndex,
): Promise<number> {
  const records = encodeSegmentRecords(chunks, retrieval.chunks);
  const index = serializeRetrievalIndex(retrieval);
  const files = JSON.stringify(Object.fromEntries(filesOf(chunks)));
  await settleAll([
    objects.put(prefix + INDEX_FILES.retrieval, index),
    objects.put(prefix + INDEX_FILES.chunks, records, 'application/json'),
    objects.put(prefix + INDEX_FILES.files, files, 'application/json'),
  ]);
  return Buffer.byteLength(records) + index.byteLength + Buffer.byteLength(files);
}

/** A segment's table of sources (a pre-segment version's worked out from its chunk records). */
export async function readSegmentFiles(objects: ObjectStore, prefix: string): Promise<SegmentFiles> {
  const bytes = await objects.get(prefix + INDEX_FILES.files);
  if (bytes) return new Map(Object.entries(JSON.parse(Buffer.from(bytes).toString('utf8')) as Record<string, number[]>));
  const chunks = await objects.get(prefix + INDEX_FILES.chunks);
  if (!chunks) throw new Error(`index segment ${prefix} is gone`);
  return filesOf(decodeChunks(chunks));
}

/** Segment source tables a worker container keeps (per object store), the least recently used dropped first. */
const FILES_KEPT = 32;
const keptFiles = new PerIndexLru<Promise<SegmentFiles>>(FILES_KEPT);

/**
 * A segment's table of sources, kept in the container once read: a segment never changes under its
 * name, so the next build of the memory reads only the tables of segments it has not seen.
 */
export function cachedSegmentFiles(objects: ObjectStore, prefix: string): Promise<SegmentFiles> {
  const kept = keptFiles.get(objects, prefix);
  if (kept) return kept.value;
  const read = readSegmentFiles(objects, prefix);
  keptFiles.set(objects, prefix, read);
  read.catch(() => keptFiles.delete(objects, prefix)); // a failed read is not kept
  return read;
}

/** A segment's retrieval index alone (what a build reads to keep the vectors of chunks it replaces unchanged). */
export async function readSegmentIndex(objects: ObjectStore, prefix: string): Promise<RetrievalIndex> {
  const retrieval = await objects.get(prefix + INDEX_FILES.retrieval);
  if (!retrieval) throw new Error(`index segment ${prefix} has no ${INDEX_FILES.retrieval}`);
  return deserializeRetrievalIndex(retrieval);
}

/** A whole segment: its retrieval index and chunk records with their texts (what a merge or an export rewrites). */
export async function readSegment(objects: ObjectStore, prefix: string): Promise<LoadedSegment> {
  const { retrieval, chunks } = await readQueriedSegment(objects, prefix);
  return { retrieval, chunks: chunks.map((record, ordinal) => withText(record, retrieval, ordinal)) };
}

/**
 * A segment as queries read it: its retrieval index and its chunk records (segment-records.ts), the
 * records' texts left in the index until a chunk is asked for (a segment written before #23 holds them in
 * its records as well, and they stay).
 */
export async function readQueriedSegment(objects: ObjectStore, prefix: string): Promise<QueriedSegment> {
  const [retrieval, chunks] = await Promise.all([objects.get(prefix + INDEX_FILES.retrieval), objects.get(prefix + INDEX_FILES.chunks)]);
  if (!retrieval) throw new Error(`index segment ${prefix} has no ${INDEX_FILES.retrieval}`);
  const index = deserializeRetrievalIndex(retrieval);
  return { retrieval: index, chunks: decodeSegmentRecords(chunks, index.chunks, prefix) };
}

/** The record with its text, from the segment's index when the record has none (filled in place: a segment never changes). */
export function withText(record: ChunkRecord, index: RetrievalIndex, ordinal: number): StoredChunk {
  if (typeof record.text !== 'string') record.text = index.chunks.texts.at(ordinal) ?? '';
  return record as StoredChunk;
}
