/**
 * The ports of portable memories (export and restore): the export jobs' records, and the archive format's
 * container (a gzipped tar streamed to and from the object store). Adapters: the DynamoDB repository and
 * the in-memory store; functions/adapters/archive/portable-archives.ts.
 */
type ExportState = 'running' | 'completed' | 'failed';

/** One export of a memory into one archive (POST /memories/export/{id}). */
export interface MemoryExport {
  id: string;
  accountId: string;
  memoryId: string;
  state: ExportState;
  /** Where the archive is written (under the memory's prefix, so deleting the memory deletes it). */
  archiveKey: string;
  /** Bytes of the archive once written. */
  size: number | null;
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ExportStore {
  create(memoryExport: MemoryExport): Promise<void>;
  get(accountId: string, id: string): Promise<MemoryExport | undefined>;
  update(accountId: string, id: string, changes: Partial<MemoryExport>): Promise<void>;
}

/** An archive being written: members go out (compressed, in parts) as they are added. */
export interface ArchiveWriter {
  add(path: string, data: string | Uint8Array): Promise<void>;
  /** Ends the archive; answers its size in bytes. */
  close(): Promise<number>;
  /** Gives the archive up: nothing is left under its key. */
  abort(): Promise<void>;
}

/** One member of an archive read back, its bytes checked against the archive limits. */
export interface PortableMember {
  path: string;
  data: Uint8Array;
}

export interface PortableArchives {
  create(key: string): ArchiveWriter;
  /**
   * The archive's members in order, read as they are consumed; a damaged, truncated or hostile archive (a
   * path leaving it, too many or too large members) throws a BadRequestError naming what is wrong.
   */
  open(key: string): AsyncIterable<PortableMember>;
}
