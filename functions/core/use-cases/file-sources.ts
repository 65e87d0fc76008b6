/**
 * Upsert by source: a file remembers where it came from (`sourceKey`) and a hash of what it was made from.
 * Creating the same source again leaves an unchanged file alone; a changed one gets the new content, is
 * processed again, and every memory that had ingested it ingests it again in a job of its own (charged for
 * the new tokens only), which replaces the file's previous chunks, entities and facts.
 */
import { BadRequestError, NotFoundError } from '../errors';
import { checkFileName, WEB_FILE_TYPES } from '../files/file-kinds';
import type { FileRecord, MemoryFileLink } from '../model';
import { objectKeys } from '../object-keys';
import type { WorkMessage } from '../work';
import { contentFields, contentHashOf, createFile, type FileDeps, type NewFile, removeFileData, fileSourceOf } from './files';

/** files/create: a new file, or (same sourceKey as an existing file) that file, updated when its content changed. */
export async function createOrUpdateFile(deps: FileDeps, accountId: string, input: NewFile): Promise<FileRecord> {
  const existing = input.sourceKey === undefined ? undefined : await deps.files.findBySource(accountId, input.sourceKey);
  if (!existing) return createFile(deps, accountId, input);
  const name = checkFileName('name', input.name);
  const source = await fileSourceOf(deps, accountId, existing.id, input);
  const contentHash = await contentHashOf(deps, input.fileType, source);
  if (contentHash === existing.contentHash && input.fileType === existing.fileType) {
    if (source.upload && source.upload.key !== existing.bronzeKey) await discardUpload(deps, accountId, source.upload.key);
    return existing;
  }
  return replaceContent(deps, existing, { ...contentFields(name, input.fileType, source), contentHash });
}

/**
 * POST /files/resync/{id}: a ready `website`, `sitemap` or `website_bulk` file is fetched again by the
 * worker (ingest/resync-web.ts); answers the file as it is now.
 */
export async function resyncFile(deps: FileDeps, accountId: string, id: string): Promise<FileRecord> {
  const file = await deps.files.get(accountId, id);
  if (!file || file.parentFileId) throw NotFoundError.of('file', id);
  if (!WEB_FILE_TYPES.has(file.fileType)) {
    throw BadRequestError.forField(
      'id',
      `file '${id}' is a '${file.fileType}' file; only website, sitemap and website_bulk files are fetched again`,
    );
  }
  if (file.state !== 'ready')
    throw BadRequestError.forField('id', `file '${id}' is ${file.state}; it can be synced again once it is ready`);
  await deps.queue.send({ kind: 'file.resync', accountId, fileId: id } satisfies WorkMessage);
  return file;
}

/** An upload a create did not need (its content was unchanged): its bytes and its record go. */
async function discardUpload(deps: FileDeps, accountId: string, key: string): Promise<void> {
  await deps.objects.delete(key);
  await deps.uploads.delete(accountId, key);
}

/**
 * Gives a file new content: what was derived from the old content goes (a web source's pages, its crawl
 * state, fetched and uploaded bytes no longer used), the file is processed again, and the memories that
 * had ingested it are refreshed. The old text stays readable until the new one replaces it.
 */
async function replaceContent(deps: FileDeps, file: FileRecord, changes: Partial<FileRecord>): Promise<FileRecord> {
  const { accountId, id } = file;
  for (const child of await deps.files.listChildren(accountId, id)) await removeFileData(deps, child);
  await deps.objects.delete(objectKeys.crawlState(accountId, id));
  // fetched bytes go, but not the text (an imported plain-text member's bytes are its text): processing drops it
  const fetched = await deps.objects.list(objectKeys.fetchedPrefix(accountId, id));
  await deps.objects.deleteMany(fetched.filter((key) => key !== file.silverTranscriptKey));
  const updated = await deps.files.update(accountId, id, {
    ...changes,
    state: 'pending',
    error: null,
    tokens: null,
    length: null,
    hiddenFilesTotal: 0,
    hiddenFilesCreated: 0,
    hiddenFilesProcessed: 0,
    hiddenFilesIngested: 0,
    updatedAt: deps.clock.now().toISOString(),
  });
  if (file.source === 'upload' && file.bronzeKey && file.bronzeKey !== updated?.bronzeKey) {
    await discardUpload(deps, accountId, file.bronzeKey);
  }
  await deps.queue.send({ kind: 'file.process', accountId, fileId: id } satisfies WorkMessage);
  await refreshMemoriesOf(deps, accountId, [id]);
  return updated ?? { ...file, ...changes };
}

/**
 * The memories that had ingested these files take them again: each link waits for ingestion once more and
 * each memory gets one `memory.refresh` (its worker starts the job when the memory is free).
 */
export async function refreshMemoriesOf(
  deps: Pick<FileDeps, 'links' | 'queue' | 'clock'>,
  accountId: string,
  fileIds: readonly string[],
  charge?: Record<string, number>,
): Promise<void> {
  const byMemory = await markLinksChanged(deps, accountId, fileIds);
  for (const [memoryId, ids] of byMemory) {
    for (let i = 0; i < ids.length; i += REFRESH_FILES_PER_MESSAGE) {
      const batch = ids.slice(i, i + REFRESH_FILES_PER_MESSAGE);
      const work: WorkMessage = { kind: 'memory.refresh', accountId, memoryId, fileIds: batch, ...(charge ? { charge } : {}) };
      await deps.queue.send(work);
    }
  }
}

/**
 * Marks the links of memories that had ingested these files as waiting again; answers the file ids by
 * memory. A link not ingested yet is marked changed too (it waits already, and the owner starts that
 * ingestion), so an ingestion under way that read the old content leaves it waiting and refreshes it.
 */
export async function markLinksChanged(
  deps: Pick<FileDeps, 'links' | 'clock'>,
  accountId: string,
  fileIds: readonly string[],
): Promise<Map<string, string[]>> {
  const now = deps.clock.now().toISOString();
  const ingested: MemoryFileLink[] = [];
  for (const fileId of fileIds) {
    for (const link of await deps.links.listByFile(accountId, fileId)) {
      await deps.links.markChanged(accountId, link.memoryId, fileId, now);
      if (link.ingestedAt) ingested.push(link); // never ingested: the memory's owner starts that ingestion
    }
  }
  return fileIdsByMemory(ingested);
}

/** The links' file ids, by memory. */
export function fileIdsByMemory(links: readonly Pick<MemoryFileLink, 'memoryId' | 'fileId'>[]): Map<string, string[]> {
  const byMemory = new Map<string, string[]>();
  for (const { memoryId, fileId } of links) {
    const ids = byMemory.get(memoryId);
    if (ids) ids.push(fileId);
    else byMemory.set(memoryId, [fileId]);
  }
  return byMemory;
}

/** File ids one refresh message carries (a queue message holds 256 KB). */
const REFRESH_FILES_PER_MESSAGE = 2_000;
