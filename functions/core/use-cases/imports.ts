/**
 * Bulk import, the API's side: check the request, record the import and queue it; the worker runs it
 * (ingest/run-import.ts). An archive is an upload of this account, claimed by the import; an S3 prefix
 * must be one the account may read (import-sources.ts). An account whose token budget is used up imports
 * nothing: its members' extraction is charged to the budget (extraction-budget.ts, charged in ingest/extraction-charge.ts).
 */
import { BadRequestError, ConflictError, NotFoundError } from '../errors';
import { archiveFormatOfName, WEB_FILE_TYPES } from '../files/file-kinds';
import { extractionBudgetUsedUp } from '../extraction-budget';
import type { Account, FileType, MetadataEntry } from '../model';
import type { FileImport, ImportSource } from '../files/bulk-import';
import type { AccountStore, Clock, IdGenerator, MemoryStore, ObjectStore, QueuePort } from '../ports';
import type { ImportStore, UploadStore } from '../files/ports';
import type { WorkMessage } from '../work';
import type { FileDeps } from '../files/file-records';
import { takeStagedUpload } from './files';
import { importSourceRefusal, type ImportSourceRules } from '../files/import-sources';

/**
 * Bulk import's bounds: buckets an S3 import may read (`*`: any), the artefact bucket (never one), archive
 * limits, members handled at once and the bytes a batch of members may hold.
 */
export interface ImportSettings extends ImportSourceRules {
  archive: { maxArchiveBytes: number; maxMembers: number; maxMemberBytes: number; maxTotalBytes: number; maxRatio: number };
  concurrency: number;
  batchBytes: number;
}

export interface ImportApiDeps {
  accounts: Pick<AccountStore, 'get'>;
  imports: ImportStore;
  uploads: UploadStore;
  memories: MemoryStore;
  objects: ObjectStore;
  queue: QueuePort;
  clock: Clock;
  ids: IdGenerator;
  config: FileDeps['config'] & { imports: ImportRules; limits: { extractionTokensPerSecond: number } };
}

/** What the API checks an import against (the config's import settings hold them). */
interface ImportRules extends ImportSourceRules {
  archive: { maxArchiveBytes: number };
}

export interface ImportRequest {
  archiveKey?: string;
  s3?: { bucket: string; prefix: string };
  memoryId?: string;
  fileType?: FileType;
  prune?: boolean;
  metadata?: MetadataEntry[];
}

export async function startImport(deps: ImportApiDeps, accountId: string, input: ImportRequest): Promise<FileImport> {
  if (input.fileType && WEB_FILE_TYPES.has(input.fileType)) {
    throw BadRequestError.forField('fileType', `'${input.fileType}' files are read from addresses; an import holds files`);
  }
  if (input.memoryId && !(await deps.memories.get(accountId, input.memoryId))) throw NotFoundError.of('memory', input.memoryId);
  const account = await deps.accounts.get(accountId);
  refuseWithoutBudget(deps, account);
  const id = deps.ids.uuid();
  const source = await importSourceOf(deps, { accountId, account }, id, input);
  const now = deps.clock.now().toISOString();
  const created: FileImport = {
    id,
    accountId,
    source,
    memoryId: input.memoryId ?? null,
    fileType: input.fileType ?? null,
    prune: input.prune ?? false,
    metadata: input.metadata ?? [],
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

async function importSourceOf(
  deps: ImportApiDeps,
  { accountId, account }: { accountId: string; account: Account | undefined },
  importId: string,
  input: ImportRequest,
): Promise<ImportSource> {
  if ((input.archiveKey === undefined) === (input.s3 === undefined)) {
    throw BadRequestError.forField('archiveKey', 'give either archiveKey or s3 (not both)');
  }
  if (input.s3) {
    const { bucket, prefix } = input.s3;
    const refusal = importSourceRefusal(deps.config.imports, account, input.s3);
    if (refusal) throw BadRequestError.forField(refusal.field, refusal.problem);
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
  // a presigned upload's bytes wait under its staging key until they are checked and copied to the upload key
  if (upload.stagingKey)
    upload = await takeStagedUpload(deps, { ...upload, stagingKey: upload.stagingKey }, `import:${importId}`, 'archiveKey');
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

/**
 * An import extracts every member, which the budget pays for: none starts on a budget used up. The error
 * is start-ingestion's budget error (400, with its data); an import needs at least one token.
 */
function refuseWithoutBudget(deps: ImportApiDeps, account: Account | undefined): void {
  if (!account || !extractionBudgetUsedUp(deps, account)) return;
  const available = Math.max(0, account.tokensRemaining);
  throw new BadRequestError("the account's token budget is used up (extraction time is charged to it); raise the budget and import again", {
    data: { tokensNeeded: 1, tokensAvailable: available, tokensExceeded: 1 - available },
  });
}
