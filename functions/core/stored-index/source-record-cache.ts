/**
 * The file records a retrieval answer names (its `sources`, and the files dating its facts), kept in the
 * container per account **source version**, so a warm query reads one version item (in parallel with the
 * memory item) instead of a batch of file records after ranking, however many files topK names.
 *
 * Why a kept record stays right: it is kept under the account's source version read before it was
 * fetched (FileStore.sourceVersion), and only read again under that same version. Every create and delete
 * of a file raises the version, and so does every update writing `fileType`, which every change of a
 * file's `name` or `externalUrl` writes with it (a file takes a new name only with new content), after the
 * write: a query that starts after a rename or delete reads the new version and fetches the records again.
 * `createdAt` never changes. A file not found (deleted) is kept as missing, under its version alike. This
 * is the bound search filters already keep their allowed sources under (allowed-source-cache.ts).
 */
import type { FileStore } from '../files/ports';
import type { FileRecord } from '../model';
import { PerIndexLru } from './per-index-lru';

/** What retrieval reads of a file: how `sources` names it, and when its facts start. */
export type SourceRecord = Pick<FileRecord, 'id' | 'name' | 'externalUrl' | 'createdAt'>;

/** Accounts kept per file store (least recently used out first). */
const ACCOUNTS_PER_STORE = 64;
/** Records kept per account and version; past it the account's records start again. */
const RECORDS_PER_ACCOUNT = 20_000;

interface Kept {
  version: number;
  /** File id → its record, or null when no such file was found. */
  records: Map<string, SourceRecord | null>;
}

/** Keyed by the file store, so each container (each store) keeps its own. */
const cache = new PerIndexLru<Kept>(ACCOUNTS_PER_STORE);

/**
 * The records of `fileIds` found in the account under source version `version`: those kept under that
 * version, the others read in one batch (`files.getMany`) and kept.
 */
export async function cachedSourceRecords(
  files: Pick<FileStore, 'getMany'>,
  accountId: string,
  version: number,
  fileIds: readonly string[],
): Promise<ReadonlyMap<string, SourceRecord>> {
  const kept = cache.get(files, accountId)?.value;
  const current = kept?.version === version ? kept.records : new Map<string, SourceRecord | null>();
  const missing = [...new Set(fileIds)].filter((id) => !current.has(id));
  const read = missing.length > 0 ? await files.getMany(accountId, missing) : undefined;
  const found = new Map<string, SourceRecord>();
  for (const id of fileIds) {
    const record = current.has(id) ? current.get(id) : sourceRecordOf(read?.get(id));
    if (record) found.set(id, record);
  }
  if (read) {
    if (current.size + missing.length > RECORDS_PER_ACCOUNT) current.clear();
    for (const id of missing) current.set(id, sourceRecordOf(read.get(id)));
    // a query that read an older version than the one kept (a write raised it meanwhile) keeps nothing
    if (!kept || kept.version <= version) cache.set(files, accountId, { version, records: current });
  }
  return found;
}

const sourceRecordOf = (file: FileRecord | undefined): SourceRecord | null =>
  file ? { id: file.id, name: file.name, externalUrl: file.externalUrl, createdAt: file.createdAt } : null;
