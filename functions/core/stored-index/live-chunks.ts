/**
 * The chunk records of a version's live chunks, read where they are: in each segment's records, less its
 * deleted ones. Seeing a new version copies no record into a new map: a record is found by id in the
 * segments one after the other (each segment's id table is made once, the first time it is asked, and
 * kept with the segment, which never changes), and `liveRecords` lists them by ordinal of the composed
 * retrieval index, one pointer a chunk. A record's text stays in its segment's index until its chunk is
 * asked for here (segments.ts `withText`): a query reads the texts of the chunks it answers, not all.
 */
import { type RetrievalIndex, sameDeletions } from '../../engine';
import type { ChunkRecord, StoredChunk } from './chunks';
import { withText } from './segments';

/** A segment's records (by ordinal) with its index (their texts) and the ordinals of its deleted chunks. */
export interface RecordPart {
  chunks: readonly ChunkRecord[];
  index: RetrievalIndex;
  deleted: ReadonlySet<number>;
}

const idTables = new WeakMap<readonly ChunkRecord[], Map<string, number>>();

/** Chunk id → ordinal among `chunks`, made once per records array. */
function idTable(chunks: readonly ChunkRecord[]): Map<string, number> {
  let table = idTables.get(chunks);
  if (!table) {
    table = new Map();
    for (let ordinal = 0; ordinal < chunks.length; ordinal++) table.set(chunks[ordinal]?.id ?? '', ordinal);
    idTables.set(chunks, table);
  }
  return table;
}

/**
 * The parts' live records in order: by ordinal of the index composed of the same parts (texts not filled
 * in). With `previous` (the live records of the version before, and its parts), the records of the first
 * parts both share (the same records, the same deletions) are copied from it at once.
 */
export function liveRecords(
  parts: readonly RecordPart[],
  previous?: { records: readonly ChunkRecord[]; parts: readonly RecordPart[] },
): readonly ChunkRecord[] {
  const only = parts.length === 1 ? parts[0] : undefined;
  if (only && only.deleted.size === 0) return only.chunks;
  let shared = 0;
  let kept = 0;
  while (previous && shared < parts.length && samePart(parts[shared], previous.parts[shared])) {
    const part = parts[shared] as RecordPart;
    kept += part.chunks.length - part.deleted.size;
    shared++;
  }
  const added = partRecords(parts.slice(shared));
  if (!previous || shared === 0) return added;
  // copied once into an array of the right length (a slice grown by pushes is copied twice)
  return (previous.records.length === kept ? previous.records : previous.records.slice(0, kept)).concat(added);
}

/** The live records of `parts`, in order. */
function partRecords(parts: readonly RecordPart[]): ChunkRecord[] {
  const records: ChunkRecord[] = [];
  for (const { chunks, deleted } of parts) {
    for (let ordinal = 0; ordinal < chunks.length; ordinal++) {
      const chunk = chunks[ordinal];
      if (chunk && !(deleted.size > 0 && deleted.has(ordinal))) records.push(chunk);
    }
  }
  return records;
}

const samePart = (a: RecordPart | undefined, b: RecordPart | undefined): boolean =>
  a !== undefined && b !== undefined && a.chunks === b.chunks && sameDeletions(a.deleted, b.deleted);

/** The parts' live records by chunk id, with their texts (ids are unique among live chunks; a deleted one may share its id). */
export class LiveChunks implements ReadonlyMap<string, StoredChunk> {
  readonly size: number;

  constructor(private readonly parts: readonly RecordPart[]) {
    this.size = parts.reduce((sum, part) => sum + part.chunks.length - part.deleted.size, 0);
  }

  get(id: string): StoredChunk | undefined {
    for (const { chunks, index, deleted } of this.parts) {
      const ordinal = idTable(chunks).get(id);
      const record = ordinal === undefined || deleted.has(ordinal) ? undefined : chunks[ordinal];
      if (record && ordinal !== undefined) return withText(record, index, ordinal);
    }
    return undefined;
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  *entries(): MapIterator<[string, StoredChunk]> {
    for (const { chunks, index, deleted } of this.parts) {
      for (const [ordinal, chunk] of chunks.entries()) if (!deleted.has(ordinal)) yield [chunk.id, withText(chunk, index, ordinal)];
    }
  }

  *keys(): MapIterator<string> {
    for (const { chunks, deleted } of this.parts) {
      for (const [ordinal, chunk] of chunks.entries()) if (!deleted.has(ordinal)) yield chunk.id;
    }
  }

  *values(): MapIterator<StoredChunk> {
    for (const [, chunk] of this.entries()) yield chunk;
  }

  [Symbol.iterator](): MapIterator<[string, StoredChunk]> {
    return this.entries();
  }

  forEach(callback: (value: StoredChunk, key: string, map: ReadonlyMap<string, StoredChunk>) => void): void {
    for (const [id, chunk] of this.entries()) callback(chunk, id, this);
  }
}
