/** Uploads, files and imports, in memory (the semantics of their DynamoDB repositories). */
import { WEB_FILE_TYPES } from '../../core/files/file-kinds';
import type { FileCategory, FileRecord, Page, PageRequest, Upload } from '../../core/model';
import type { FileImport } from '../../core/files/bulk-import';
import {
  changesSourceFields,
  type FileStore,
  type ImportStore,
  type ResyncClaim,
  type ResyncClaimResult,
  type UploadStore,
} from '../../core/files/ports';
import { AccountRecords, byCreation, compare, definedChanges, foundById, pageOf } from './records';

export class MemoryUploadStore implements UploadStore {
  private readonly uploads = new AccountRecords<Upload>();

  async create(upload: Upload): Promise<void> {
    this.uploads.create(upload.accountId, upload.key, upload);
  }

  async claim(accountId: string, key: string, fileId: string): Promise<Upload | undefined> {
    return this.uploads.update(
      accountId,
      key,
      (upload) => ({ ...upload, fileId }),
      (upload) => upload.fileId === null || upload.fileId === undefined || upload.fileId === fileId,
    );
  }

  async release(accountId: string, key: string, fileId: string): Promise<void> {
    this.uploads.update(
      accountId,
      key,
      (upload) => ({ ...upload, fileId: null }),
      (upload) => upload.fileId === fileId,
    );
  }

  async delete(accountId: string, key: string): Promise<void> {
    this.uploads.delete(accountId, key);
  }
}

/** A top-level file (listed under its account); hidden children of a sitemap or crawl are listed under their parent only. */
const isTopLevel = (file: FileRecord) => !file.parentFileId;

/** A file's re-sync claim and last re-sync: beside the file, outside its record, as on the file item. */
interface ResyncMarks {
  claimedAt?: string;
  lastResyncAt?: string;
}

export class MemoryFileStore implements FileStore {
  private readonly files = new AccountRecords<FileRecord>();
  private readonly resyncs = new AccountRecords<ResyncMarks>();
  /** Each account's source version (see FileStore.sourceVersion). */
  private readonly sourceVersions = new Map<string, number>();

  async create(file: FileRecord): Promise<void> {
    this.files.create(file.accountId, file.id, file);
    this.raiseSourceVersion(file.accountId);
  }

  async createMany(files: readonly FileRecord[]): Promise<void> {
    for (const file of files) this.files.put(file.accountId, file.id, file);
    for (const accountId of new Set(files.map((file) => file.accountId))) this.raiseSourceVersion(accountId);
  }

  async sourceVersion(accountId: string): Promise<number> {
    return this.sourceVersions.get(accountId) ?? 0;
  }

  private raiseSourceVersion(accountId: string): void {
    this.sourceVersions.set(accountId, (this.sourceVersions.get(accountId) ?? 0) + 1);
  }

  async get(accountId: string, id: string): Promise<FileRecord | undefined> {
    return this.files.get(accountId, id);
  }

  async findBySource(accountId: string, sourceKey: string): Promise<FileRecord | undefined> {
    return this.bySource(accountId).find((file) => file.sourceKey === sourceKey);
  }

  async listBySourcePrefix(accountId: string, prefix: string): Promise<FileRecord[]> {
    return this.bySource(accountId).filter((file) => file.sourceKey?.startsWith(prefix));
  }

  async *readyWebSources(): AsyncGenerator<Array<Pick<FileRecord, 'accountId' | 'id'>>> {
    const ready = [...this.files.all()].filter((file) => file.state === 'ready' && isTopLevel(file) && WEB_FILE_TYPES.has(file.fileType));
    if (ready.length) yield ready.map(({ accountId, id }) => ({ accountId, id }));
  }

  async getMany(accountId: string, ids: readonly string[]): Promise<Map<string, FileRecord>> {
    return foundById(ids, (id) => this.files.get(accountId, id));
  }

  async list(accountId: string, category: FileCategory | undefined, page: PageRequest): Promise<Page<FileRecord>> {
    const listed = this.files
      .values(accountId)
      .filter((file) => isTopLevel(file) && (category === undefined || file.category === category));
    return pageOf(listed, byCreation, `files|${accountId}|${category ?? ''}`, page);
  }

  async update(
    accountId: string,
    id: string,
    changes: Partial<FileRecord>,
    whenState?: FileRecord['state'][],
    whenContentHash?: string,
  ): Promise<FileRecord | undefined> {
    const updated = this.files.update(
      accountId,
      id,
      (file) => ({ ...file, ...definedChanges(changes) }),
      (file) => (!whenState || whenState.includes(file.state)) && (!whenContentHash || file.contentHash === whenContentHash),
    );
    if (updated && changesSourceFields(changes)) this.raiseSourceVersion(accountId);
    return updated;
  }

  async delete(accountId: string, id: string): Promise<void> {
    this.files.delete(accountId, id);
    this.resyncs.delete(accountId, id);
    this.raiseSourceVersion(accountId);
  }

  async deleteMany(accountId: string, ids: readonly string[]): Promise<void> {
    for (const id of ids) await this.delete(accountId, id);
  }

  async claimResync(accountId: string, id: string, at: ResyncClaim): Promise<ResyncClaimResult> {
    const marks = this.resyncs.get(accountId, id) ?? {};
    const free =
      (marks.claimedAt === undefined || marks.claimedAt < at.staleBefore) &&
      (marks.lastResyncAt === undefined || marks.lastResyncAt < at.intervalBefore);
    if (this.files.get(accountId, id)?.state === 'ready' && free) {
      this.resyncs.put(accountId, id, { claimedAt: at.now, lastResyncAt: at.now });
      return { claimed: true };
    }
    return { claimed: false, claimedAt: marks.claimedAt ?? null, lastResyncAt: marks.lastResyncAt ?? null };
  }

  async endResync(accountId: string, id: string): Promise<void> {
    this.resyncs.update(accountId, id, ({ lastResyncAt }) => ({ lastResyncAt }));
  }

  async listChildren(accountId: string, parentId: string): Promise<FileRecord[]> {
    return this.inCreationOrder(this.files.values(accountId).filter((file) => file.parentFileId === parentId));
  }

  async increment(
    accountId: string,
    id: string,
    counter: 'hiddenFilesCreated' | 'hiddenFilesProcessed' | 'hiddenFilesIngested',
    by: number,
  ): Promise<FileRecord | undefined> {
    return this.files.update(accountId, id, (file) => ({ ...file, [counter]: file[counter] + by }));
  }

  /** The account's top-level files that have a sourceKey, in sourceKey order. */
  private bySource(accountId: string): FileRecord[] {
    const sourced = this.files.values(accountId).filter((file) => isTopLevel(file) && file.sourceKey);
    return sourced.sort((a, b) => compare(a.sourceKey ?? '', b.sourceKey ?? ''));
  }

  private inCreationOrder(files: FileRecord[]): FileRecord[] {
    return files.sort((a, b) => compare(byCreation(a), byCreation(b)));
  }
}

export class MemoryImportStore implements ImportStore {
  private readonly imports = new AccountRecords<FileImport>();

  async create(fileImport: FileImport): Promise<void> {
    this.imports.create(fileImport.accountId, fileImport.id, fileImport);
  }

  async get(accountId: string, id: string): Promise<FileImport | undefined> {
    return this.imports.get(accountId, id);
  }

  async update(accountId: string, id: string, changes: Partial<FileImport>): Promise<void> {
    this.imports.update(accountId, id, (fileImport) => ({ ...fileImport, ...definedChanges(changes) }));
  }
}
