/**
 * The ports of files: raw uploads, file records (with their re-sync claims) and bulk imports. Adapters:
 * the DynamoDB repositories (functions/adapters/dynamodb/repositories) and the in-memory stores.
 */
import type { FileCategory, FileRecord, Page, PageRequest, Upload } from '../model';
import type { FileImport } from './bulk-import';

export interface UploadStore {
  create(upload: Upload): Promise<void>;
  /** Marks the upload used by a file and answers it (undefined: no such upload); ConflictError if another file took it. */
  claim(accountId: string, key: string, fileId: string): Promise<Upload | undefined>;
  /** Frees an upload a file claimed but could not use. */
  release(accountId: string, key: string, fileId: string): Promise<void>;
  delete(accountId: string, key: string): Promise<void>;
}

/** The times a re-sync claim is decided by (ISO 8601). */
export interface ResyncClaim {
  now: string;
  /** A claim older than this is stale (its worker died): it no longer holds the file. */
  staleBefore: string;
  /** The file's last re-sync must be older than this. */
  intervalBefore: string;
}

/** A claimed re-sync, or the claim and the last re-sync that held the file (null when absent). */
export type ResyncClaimResult = { claimed: true } | { claimed: false; claimedAt: string | null; lastResyncAt: string | null };

export interface FileStore {
  /** Throws ConflictError when the id exists. */
  create(file: FileRecord): Promise<void>;
  /** Records new files (fresh ids), many per request. */
  createMany(files: readonly FileRecord[]): Promise<void>;
  get(accountId: string, id: string): Promise<FileRecord | undefined>;
  /** The top-level file holding this sourceKey. */
  findBySource(accountId: string, sourceKey: string): Promise<FileRecord | undefined>;
  /** Every top-level file whose sourceKey starts with `prefix` (an import's source). */
  listBySourcePrefix(accountId: string, prefix: string): Promise<FileRecord[]>;
  /**
   * Every account's ready top-level `website`, `sitemap` and `website_bulk` files (account and id), a page
   * at a time: a whole-table read, for the scheduled re-sync only.
   */
  readyWebSources(): AsyncIterable<Array<Pick<FileRecord, 'accountId' | 'id'>>>;
  /** The files of `ids` that exist, by id (a few requests, not one per file). */
  getMany(accountId: string, ids: readonly string[]): Promise<Map<string, FileRecord>>;
  list(accountId: string, category: FileCategory | undefined, page: PageRequest): Promise<Page<FileRecord>>;
  /**
   * Applies changes; with `whenState`, only if the file is in one of those states, and with `whenContentHash`,
   * only while its content is still that one (else ConflictError).
   */
  update(
    accountId: string,
    id: string,
    changes: Partial<FileRecord>,
    whenState?: FileRecord['state'][],
    whenContentHash?: string,
  ): Promise<FileRecord | undefined>;
  delete(accountId: string, id: string): Promise<void>;
  /** Deletes many files' records in batched writes. */
  deleteMany(accountId: string, ids: readonly string[]): Promise<void>;
  /** The hidden children of a sitemap or crawl. */
  listChildren(accountId: string, parentId: string): Promise<FileRecord[]>;
  /**
   * Claims a re-sync of a ready file in one conditional write: records `now` as its claim and as its last
   * re-sync, unless a claim newer than `staleBefore` holds it or its last re-sync is newer than
   * `intervalBefore`. Answers whether it was claimed, and otherwise what held it.
   */
  claimResync(accountId: string, id: string, at: ResyncClaim): Promise<ResyncClaimResult>;
  /** Clears a file's re-sync claim: its re-sync ended. */
  endResync(accountId: string, id: string): Promise<void>;
  /**
   * The version of this account's file source fields: a number that every create, delete, and update of a
   * file's `fileType`, `sourceKey` or `metadata` raises (after the write), so a result worked out from the
   * file records under one version holds while the version is unchanged (search filters cache on it).
   */
  sourceVersion(accountId: string): Promise<number>;
  /** Adds `by` to a counter of a file atomically; answers the file after. */
  increment(
    accountId: string,
    id: string,
    counter: 'hiddenFilesCreated' | 'hiddenFilesProcessed' | 'hiddenFilesIngested',
    by: number,
  ): Promise<FileRecord | undefined>;
}

/** Whether a file update writes a field search filters read (`fileType`, `sourceKey`, `metadata`): it raises the source version. */
export function changesSourceFields(changes: Partial<FileRecord>): boolean {
  return changes.fileType !== undefined || changes.sourceKey !== undefined || changes.metadata !== undefined;
}

export interface ImportStore {
  create(fileImport: FileImport): Promise<void>;
  get(accountId: string, id: string): Promise<FileImport | undefined>;
  update(accountId: string, id: string, changes: Partial<FileImport>): Promise<void>;
}
