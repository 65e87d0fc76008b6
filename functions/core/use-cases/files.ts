/** Files: uploads, records, listing and deletion. Processing happens in the worker (ingest/process-file). */
import { createHash } from 'node:crypto';
import { BadRequestError, ConflictError, NotFoundError, PayloadTooLargeError } from '../errors';
import { categoryOf, checkFileName, checkWebAddress, extensionOf, WEB_FILE_TYPES } from '../files/file-kinds';
import {
  type FileCategory,
  type FileRecord,
  type FileType,
  type MetadataEntry,
  type Page,
  type PageRequest,
  sessionSourceId,
  sourceRefOf,
  type Upload,
} from '../model';
import { objectKeys } from '../object-keys';
import type { WorkMessage } from '../work';
import { emptyFile, type FileDeps, removeFileData } from '../files/file-records';

export interface UploadInput {
  name: string;
  contentType: string;
  bytes: Uint8Array;
}

/** Stores raw bytes under the bronze prefix and remembers the key for one later files/create. */
export async function uploadFile(deps: FileDeps, accountId: string, input: UploadInput): Promise<Upload> {
  const name = checkFileName('file', input.name);
  if (input.bytes.length > deps.config.maxUploadBytes) {
    throw new PayloadTooLargeError(`file: ${overLimit(deps)}`);
  }
  if (input.bytes.length === 0) throw BadRequestError.forField('file', 'is empty');
  const upload = newUpload(deps, accountId, name, input.contentType, input.bytes.length);
  await deps.objects.put(upload.key, input.bytes, upload.contentType);
  await deps.uploads.create(upload);
  return upload;
}

const overLimit = (deps: Pick<FileDeps, 'config'>): string => `is larger than the ${deps.config.maxUploadBytes / 1048576} MB upload limit`;

/**
 * Hands out a presigned PUT address instead of taking the bytes (for files larger than API Gateway's
 * limit). The address takes exactly `size` bytes (the length is signed) and writes a staging key;
 * files/create checks the object's real size and copies it to the upload key.
 */
export async function createUploadUrl(
  deps: FileDeps,
  accountId: string,
  input: { name: string; contentType?: string; size: number },
  expiresSeconds: number,
): Promise<{ upload: Upload; uploadUrl: string }> {
  const name = checkFileName('name', input.name);
  if (input.size > deps.config.maxUploadBytes) throw BadRequestError.forField('size', overLimit(deps));
  const upload = newUpload(deps, accountId, name, input.contentType ?? 'application/octet-stream', input.size, true);
  await deps.uploads.create(upload);
  const stagingKey = upload.stagingKey ?? upload.key;
  return { upload, uploadUrl: await deps.objects.presignPut(stagingKey, upload.contentType, upload.size, expiresSeconds) };
}

function newUpload(deps: FileDeps, accountId: string, name: string, contentType: string, size: number, presigned = false): Upload {
  const uploadId = deps.ids.uuid();
  return {
    key: objectKeys.upload(accountId, uploadId, name),
    accountId,
    name,
    size,
    contentType,
    fileId: null,
    ...(presigned ? { stagingKey: objectKeys.incoming(accountId, uploadId, name) } : {}),
    createdAt: deps.clock.now().toISOString(),
  };
}

export interface NewFile {
  name: string;
  id?: string;
  key?: string;
  /** A web address to read the content from (the wire's `external_uri`, which errors name). */
  externalUrl?: string;
  fileType: FileType;
  /** Where the file comes from; a file already holding it is updated instead (file-sources.ts). */
  sourceKey?: string;
  /** `{key, value}` pairs (none when absent); an upsert replaces the file's. */
  metadata?: MetadataEntry[];
}

/** Records a file and queues its processing. The upload key is claimed first, so no two files share it. */
export async function createFile(deps: FileDeps, accountId: string, input: NewFile): Promise<FileRecord> {
  const name = checkFileName('name', input.name);
  const id = input.id ?? deps.ids.uuid();
  const idProblem = fileIdProblem(id);
  if (idProblem) throw BadRequestError.forField('id', idProblem);
  const source = await fileSourceOf(deps, accountId, id, input);
  const now = deps.clock.now().toISOString();
  const file: FileRecord = {
    ...emptyFile(accountId, id, now, deps.config.originRegion),
    ...contentFields(name, input.fileType, source),
    sourceKey: input.sourceKey ?? null,
    metadata: input.metadata ?? [],
    contentHash: input.sourceKey === undefined ? null : await contentHashOf(deps, input.fileType, source),
  };
  try {
    await deps.files.create(file);
  } catch (error) {
    if (source.upload) await deps.uploads.release(accountId, source.upload.key, id);
    if (error instanceof ConflictError) throw BadRequestError.forField('id', `a file with id '${id}' already exists`);
    throw error;
  }
  await deps.queue.send({ kind: 'file.process', accountId, fileId: id } satisfies WorkMessage);
  return file;
}

export type FileSource = { upload?: Upload; url?: URL };

/** The fields of a file that its name, type and source decide (on create, and when upserted content changes). */
export function contentFields(name: string, fileType: FileType, source: FileSource) {
  return {
    name,
    extension: extensionOf(name) || (source.url ? extensionOf(source.url.pathname) : ''),
    fileType,
    category: categoryOf(fileType),
    bronzeKey: source.upload?.key ?? null,
    externalUrl: source.url?.href ?? null,
    contentType: source.upload?.contentType ?? null,
    source: source.upload ? ('upload' as const) : ('url' as const),
    size: source.upload?.size ?? null,
  } satisfies Partial<FileRecord>;
}

/** SHA-256 of what a file is made from: its uploaded bytes, or its type and address. */
export async function contentHashOf(deps: Pick<FileDeps, 'objects'>, fileType: FileType, source: FileSource): Promise<string> {
  const hash = createHash('sha256');
  if (source.upload) hash.update(Buffer.from((await deps.objects.get(source.upload.key)) ?? new Uint8Array()));
  else hash.update(`${fileType} ${source.url?.href ?? ''}`);
  return hash.digest('hex');
}

export async function fileSourceOf(deps: FileDeps, accountId: string, fileId: string, input: NewFile): Promise<FileSource> {
  const url = input.externalUrl === undefined ? undefined : checkWebAddress('external_uri', input.externalUrl);
  if (WEB_FILE_TYPES.has(input.fileType)) {
    if (!url) throw BadRequestError.forField('external_uri', `is required for a '${input.fileType}' file`);
    if (input.key !== undefined) throw BadRequestError.forField('key', `is not used by a '${input.fileType}' file`);
    return { url };
  }
  if (input.key === undefined) {
    if (!url) throw BadRequestError.forField('key', 'is required (the key POST /files/upload returned), or give external_uri');
    return { url };
  }
  return { upload: await claimUpload(deps, accountId, fileId, input.key), url };
}

async function claimUpload(deps: FileDeps, accountId: string, fileId: string, key: string): Promise<Upload> {
  let upload: Upload | undefined;
  try {
    upload = await deps.uploads.claim(accountId, key, fileId);
  } catch (error) {
    if (error instanceof ConflictError) throw BadRequestError.forField('key', 'is already used by another file');
    throw error;
  }
  if (!upload) throw BadRequestError.forField('key', 'is not a key that POST /files/upload returned to this account');
  if (upload.stagingKey) return takeStagedUpload(deps, { ...upload, stagingKey: upload.stagingKey }, fileId);
  if (upload.size > 0) return upload;
  // a presigned upload handed out before staging keys: its size is known once the PUT is done
  return measuredUpload(deps, upload, fileId, await deps.objects.head(key));
}

/**
 * A presigned upload's bytes: checked against the size the address was signed for (S3 enforces it; the
 * local store does not) and the upload limit, then copied to the upload key, which no address can write.
 * A copy made by an earlier create that then failed is used as it is. `claimant`: the file (or import)
 * that claimed the upload; `field`: the request's field that named it.
 */
export async function takeStagedUpload(
  deps: Pick<FileDeps, 'objects' | 'uploads' | 'config'>,
  upload: Upload & { stagingKey: string },
  claimant: string,
  field = 'key',
): Promise<Upload> {
  const staged = await deps.objects.head(upload.stagingKey);
  if (!staged) return measuredUpload(deps, upload, claimant, await deps.objects.head(upload.key), field);
  if (staged.size !== upload.size || staged.size > deps.config.maxUploadBytes) {
    await deps.objects.delete(upload.stagingKey);
    await deps.uploads.release(upload.accountId, upload.key, claimant);
    const limit =
      staged.size > deps.config.maxUploadBytes ? overLimit(deps) : `is not the ${upload.size} bytes the upload address was made for`;
    throw BadRequestError.forField(field, `the uploaded object (${staged.size} bytes) ${limit}; upload it again`);
  }
  await deps.objects.copy(upload.stagingKey, upload.key);
  await deps.objects.delete(upload.stagingKey);
  return { ...upload, size: staged.size, contentType: staged.contentType ?? upload.contentType };
}

async function measuredUpload(
  deps: Pick<FileDeps, 'uploads'>,
  upload: Upload,
  claimant: string,
  stored: { size: number; contentType: string | null } | undefined,
  field = 'key',
): Promise<Upload> {
  if (!stored) {
    await deps.uploads.release(upload.accountId, upload.key, claimant);
    throw BadRequestError.forField(field, 'nothing has been uploaded to this key yet');
  }
  return { ...upload, size: stored.size, contentType: stored.contentType ?? upload.contentType };
}

export interface FileDetails {
  file: FileRecord;
  content: string | null;
  memoryId: string | null;
}

/** A file with its extracted text and the memory it belongs to (the first, when several). */
export async function getFile(deps: FileDeps, accountId: string, id: string): Promise<FileDetails> {
  const file = await deps.files.get(accountId, id);
  if (!file) throw NotFoundError.of('file', id);
  const [links, text] = await Promise.all([
    deps.links.listByFile(accountId, id),
    file.silverTranscriptKey ? deps.objects.get(file.silverTranscriptKey) : Promise.resolve(undefined),
  ]);
  // trimmed: a plain-text file's transcript is its own bytes, final newline included
  return { file, content: text ? Buffer.from(text).toString('utf8').trim() : null, memoryId: links[0]?.memoryId ?? null };
}

/** An address to read a file's whole extracted text from (for texts too long for an API answer), or null. */
export async function contentAddress(deps: Pick<FileDeps, 'objects'>, file: FileRecord, seconds: number): Promise<string | null> {
  return file.silverTranscriptKey ? deps.objects.presignGet(file.silverTranscriptKey, seconds) : null;
}

export function listFiles(
  deps: FileDeps,
  accountId: string,
  category: FileCategory | 'all' | undefined,
  page: PageRequest,
): Promise<Page<FileRecord>> {
  return deps.files.list(accountId, category === 'all' ? undefined : category, page);
}

/** Deletes a file that no memory uses: its raw and derived objects first, its record last. */
export async function deleteFile(deps: FileDeps, accountId: string, id: string): Promise<void> {
  const file = await deps.files.get(accountId, id);
  if (!file) throw NotFoundError.of('file', id);
  const links = await deps.links.listByFile(accountId, id);
  if (links[0]) {
    throw BadRequestError.forField(
      'id',
      `file '${id}' is in memory '${links[0].memoryId}'; remove it with DELETE /memories/delete-file first`,
    );
  }
  for (const child of await deps.files.listChildren(accountId, id)) await removeFileData(deps, child);
  await removeFileData(deps, file);
}

/**
 * Why a caller's file id cannot be taken, or undefined: an id starting `session:` would read as a session's
 * source (its chunks taken for that session's messages), so new files may not have one.
 */
function fileIdProblem(id: string): string | undefined {
  return sourceRefOf(id).kind === 'session'
    ? `must not start with '${sessionSourceId('')}' (kmem names a session's messages so)`
    : undefined;
}
