/**
 * Bulk import, the API's side: check the request, record the import and queue it; the worker runs it
 * (ingest/run-import.ts). An archive is an upload of this account, claimed by the import; an S3 prefix
 * must be in a bucket the service may read.
 */
import { BadRequestError, ConflictError, NotFoundError } from '../errors';
import { archiveFormatOfName, WEB_FILE_TYPES } from '../files/file-kinds';
import type { FileImport, FileType, ImportSource } from '../model';
import type { Clock, IdGenerator, ImportStore, MemoryStore, ObjectStore, QueuePort, UploadStore } from '../ports';
import type { WorkMessage } from '../work';

/** Bulk import's bounds: buckets an S3 import may read (`*`: any), archive limits, members handled at once. */
export interface ImportSettings {
  buckets: readonly string[];
  archive: { maxArchiveBytes: number; maxMembers: number; maxMemberBytes: number; maxTotalBytes: number; maxRatio: number };
  concurrency: number;
}

export interface ImportApiDeps {
  imports: ImportStore;
  uploads: UploadStore;
  memories: MemoryStore;
  objects: ObjectStore;
  queue: QueuePort;
  clock: Clock;
  ids: IdGenerator;
  config: { imports: ImportRules };
}

/** What the API checks an import against (the config's import settings hold them). */
interface ImportRules {
  /** Buckets an S3 import may read; `*` for any. */
  buckets: readonly string[];
  archive: { maxArchiveBytes: number };
}

export interface ImportRequest {
  archiveKey?: string;
  s3?: { bucket: string; prefix: string };
  memoryId?: string;
  fileType?: FileType;
  prune?: boolean;
}

export async function startImport(deps: ImportApiDeps, accountId: string, input: ImportRequest): Promise<FileImport> {
  if (input.fileType && WEB_FILE_TYPES.has(input.fileType)) {
    throw BadRequestError.forField('fileType', `'${input.fileType}' files are read from addresses; an import holds files`);
  }
  if (input.memoryId && !(await deps.memories.get(accountId, input.memoryId))) throw NotFoundError.of('memory', input.memoryId);
  const id = deps.ids.uuid();
  const source = await importSourceOf(deps, accountId, id, input);
  const now = deps.clock.now().toISOString();
  const created: FileImport = {
    id,
    accountId,
    source,
    memoryId: input.memoryId ?? null,
    fileType: input.fileType ?? null,
    prune: input.prune ?? false,
    state: 'running',
    total: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    deleted: 0,
    failed: 0,
    errors: [],
    position: 0,
    refreshMemoryIds: [],
    createdAt: now,
    updatedAt: now,
  };
  await deps.imports.create(created);
  await deps.queue.send({ kind: 'file.import', accountId, importId: id } satisfies WorkMessage);
  return created;
}

export async function getImport(deps: Pick<ImportApiDeps, 'imports'>, accountId: string, id: string): Promise<FileImport> {
  const found = await deps.imports.get(accountId, id);
  if (!found) throw NotFoundError.of('import', id);
  return found;
}

async function importSourceOf(deps: ImportApiDeps, accountId: string, importId: string, input: ImportRequest): Promise<ImportSource> {
  if ((input.archiveKey === undefined) === (input.s3 === undefined)) {
    throw BadRequestError.forField('archiveKey', 'give either archiveKey or s3 (not both)');
  }
  if (input.s3) {
    const { bucket, prefix } = input.s3;
    const allowed = deps.config.imports.buckets;
    if (!allowed.includes('*') && !allowed.includes(bucket)) {
      throw BadRequestError.forField('s3.bucket', `'${bucket}' is not a bucket this service may read (the stage's importBuckets)`);
    }
    return { kind: 's3', bucket, prefix };
  }
  return archiveSource(deps, accountId, importId, input.archiveKey ?? '');
}

async function archiveSource(deps: ImportApiDeps, accountId: string, importId: string, key: string): Promise<ImportSource> {
  let upload;
  try {
    upload = await deps.uploads.claim(accountId, key, `import:${importId}`);
  } catch (error) {
    if (error instanceof ConflictError) throw BadRequestError.forField('archiveKey', 'is already used by a file or another import');
    throw error;
  }
  if (!upload) throw BadRequestError.forField('archiveKey', 'is not a key that POST /files/upload returned to this account');
  const release = () => deps.uploads.release(accountId, key, `import:${importId}`);
  if (!archiveFormatOfName(upload.name)) {
    await release();
    throw BadRequestError.forField('archiveKey', `'${upload.name}' is not a .zip, .tar or .tar.gz archive`);
  }
  const size = upload.size || (await deps.objects.head(key))?.size || 0;
  const limit = deps.config.imports.archive.maxArchiveBytes;
  if (size === 0 || size > limit) {
    await release();
    throw BadRequestError.forField(
      'archiveKey',
      size === 0 ? 'nothing has been uploaded to this key yet' : `the archive is ${size} bytes, over the limit of ${limit}`,
    );
  }
  return { kind: 'archive', key, name: upload.name };
}
