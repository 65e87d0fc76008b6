/**
 * A segment's chunk records as stored (`chunks.json`). Since #23's cold-start work (format 2) the file
 * holds only what the segment's retrieval index does not: a record's id, source, offsets and title are
 * the index's chunk table (same ordinals), so the file keeps, by ordinal, a record's page, message and
 * context, and its title where it differs from the index's (which trims it). A cold container then
 * parses a few bytes per chunk instead of every record, and builds the records from the table it already
 * read. Segments written before hold a JSON array of whole records (with their texts, before format 1
 * of the index; without, after) and are read as they are.
 */
import type { ChunkTable } from '../../engine';
import { type ChunkRecord, encodeChunks, messageOf, type StoredChunk, type StoredMessage, storedMessage } from './chunks';

const RECORDS_FORMAT = 2;

/** What a record holds beyond the index's chunk table (`title: null`: the record has no title though the table has one). */
interface RecordExtras {
  title?: string | null;
  pageId?: string;
  message?: StoredMessage;
  context?: string;
}

interface StoredRecords {
  format: typeof RECORDS_FORMAT;
  count: number;
  /** [ordinal, extras] for the records that have any, ordinals ascending. */
  extras: Array<[number, RecordExtras]>;
}

/** The records of a segment whose index has `table` (built from the same chunks, same order), as stored. */
export function encodeSegmentRecords(chunks: readonly StoredChunk[], table: ChunkTable): string {
  // chunks that are not the table's (never, from the builds) are stored whole, as before
  if (table.ids.length !== chunks.length || !chunks.every((chunk, ordinal) => derivable(chunk, table, ordinal)))
    return encodeChunks(chunks, { texts: false });
  const extras: Array<[number, RecordExtras]> = [];
  chunks.forEach((chunk, ordinal) => {
    const own = extrasOf(chunk, tableTitle(table, ordinal));
    if (own) extras.push([ordinal, own]);
  });
  const stored: StoredRecords = { format: RECORDS_FORMAT, count: chunks.length, extras };
  return JSON.stringify(stored);
}

/**
 * The records of a segment (by ordinal) from its `chunks.json` and its index's chunk table: without their
 * texts, unless the segment was written before the index held them (the caller fills them in on demand).
 */
export function decodeSegmentRecords(bytes: Uint8Array | undefined, table: ChunkTable, prefix: string): ChunkRecord[] {
  const parsed: unknown = bytes ? JSON.parse(Buffer.from(bytes).toString('utf8')) : [];
  if (Array.isArray(parsed)) return checked(parsed as StoredChunkAs[], table, prefix);
  const stored = parsed as StoredRecords;
  if (stored.format !== RECORDS_FORMAT || stored.count !== table.ids.length)
    throw new Error(`index segment ${prefix}: chunk records of format ${stored.format} (${stored.count}) do not fit its index`);
  const records: ChunkRecord[] = new Array(stored.count);
  for (let ordinal = 0; ordinal < stored.count; ordinal++) records[ordinal] = recordOf(table, ordinal);
  for (const [ordinal, extras] of stored.extras) {
    const record = records[ordinal];
    if (record) withExtras(record, extras);
  }
  return records;
}

/** The record the chunk table holds for `ordinal` (its title only when it has one). */
function recordOf(table: ChunkTable, ordinal: number): ChunkRecord {
  const record: ChunkRecord = {
    id: table.ids[ordinal] ?? '',
    fileId: table.fileIds[ordinal] ?? '',
    start: table.starts[ordinal] ?? -1,
    end: table.ends[ordinal] ?? -1,
  };
  const title = tableTitle(table, ordinal);
  if (title !== undefined) record.title = title;
  return record;
}

function withExtras(record: ChunkRecord, { title, pageId, message, context }: RecordExtras): void {
  if (title === null) delete record.title;
  else if (title !== undefined) record.title = title;
  if (pageId !== undefined) record.pageId = pageId;
  if (message !== undefined) record.message = messageOf(message);
  if (context !== undefined) record.context = context;
}

/** What the record holds beyond the table; undefined when nothing. */
function extrasOf(chunk: StoredChunk, title: string | undefined): RecordExtras | undefined {
  const extras: RecordExtras = {};
  if (chunk.title !== title) extras.title = chunk.title ?? null;
  if (chunk.pageId !== undefined) extras.pageId = chunk.pageId;
  if (chunk.message !== undefined) extras.message = storedMessage(chunk.message);
  if (chunk.context !== undefined) extras.context = chunk.context;
  return Object.keys(extras).length > 0 ? extras : undefined;
}

/** The table's title of a chunk, undefined when it has none. */
const tableTitle = (table: ChunkTable, ordinal: number): string | undefined => table.titles[ordinal] || undefined;

/** Whether the chunk's id, source and offsets are the table's. */
const derivable = (chunk: StoredChunk, table: ChunkTable, ordinal: number): boolean =>
  table.ids[ordinal] === chunk.id &&
  table.fileIds[ordinal] === chunk.fileId &&
  table.starts[ordinal] === chunk.start &&
  table.ends[ordinal] === chunk.end;

/** A whole record as stored before format 2. */
type StoredChunkAs = Omit<ChunkRecord, 'message'> & { message?: StoredMessage };

/** Records stored whole: one without its text must be its index's chunk of the same ordinal (the index has the text). */
function checked(stored: StoredChunkAs[], table: ChunkTable, prefix: string): ChunkRecord[] {
  return stored.map((record, ordinal): ChunkRecord => {
    if (typeof record.text !== 'string' && table.ids[ordinal] !== record.id)
      throw new Error(`index segment ${prefix}: chunk ${ordinal} differs from its index`);
    return record.message === undefined ? (record as ChunkRecord) : { ...record, message: messageOf(record.message) };
  });
}
