/**
 * Upsert by source: a file remembers where it came from (`sourceKey`) and a hash of what it was made from.
 * Creating the same source again leaves an unchanged file alone; a changed one gets the new content, is
 * processed again, and every memory that had ingested it ingests it again in a job of its own (charged for
 * the new tokens only), which replaces the file's previous chunks, entities and facts.
 */
import { BadRequestError, NotFoundError, RateLimitedError } from '../errors';
import { checkFileName, WEB_FILE_TYPES } from '../files/file-kinds';
import type { FileRecord, MetadataEntry } from '../model';
import { sameMetadata } from '../files/file-metadata';
import { objectKeys } from '../object-keys';
import type { WorkMessage } from '../work';
import { refreshMemoriesOf } from '../files/memory-links';
import { contentFields, contentHashOf, createFile, type NewFile, fileSourceOf } from './files';
import { type FileDeps, removeFileData } from '../files/file-records';

/** files/create: a new file, or (same sourceKey as an existing file) that file, updated when its content changed. */
export async function createOrUpdateFile(deps: FileDeps, accountId: string, input: NewFile): Promise<FileRecord> {
  const existing = input.sourceKey === undefined ? undefined : await deps.files.findBySource(accountId, input.sourceKey);
  if (!existing) return createFile(deps, accountId, input);
  const name = checkFileName('name', input.name);
  const source = await fileSourceOf(deps, accountId, existing.id, input);
  const contentHash = await contentHashOf(deps, input.fileType, source);
  const metadata = input.metadata ?? [];
  if (contentHash === existing.contentHash && input.fileType === existing.fileType) {
    if (source.upload && source.upload.key !== existing.bronzeKey) await discardUpload(deps, accountId, source.upload.key);
    // new metadata alone is no new content: nothing is processed or ingested again (filters read it at query time)
    if (sameMetadata(existing.metadata, metadata)) return existing;
    const changes = { metadata, updatedAt: deps.clock.now().toISOString() };
    return (await deps.files.update(accountId, existing.id, changes)) ?? { ...existing, ...changes };
  }
  return replaceContent(deps, existing, { ...contentFields(name, input.fileType, source), contentHash, metadata });
}

/**
 * Replaces a file's metadata (the console's edit, `POST /files/metadata/{id}`): the file is not processed
 * or ingested again; every memory holding it filters by the new metadata from the next query on.
 */
export async function setFileMetadata(
  deps: Pick<FileDeps, 'files' | 'clock'>,
  accountId: string,
  id: string,
  metadata: MetadataEntry[],
): Promise<FileRecord> {
  const file = await deps.files.get(accountId, id);
  if (!file || file.parentFileId) throw NotFoundError.of('file', id);
  const changes = { metadata, updatedAt: deps.clock.now().toISOString() };
  const updated = await deps.files.update(accountId, id, changes);
  if (!updated) throw NotFoundError.of('file', id);
  return updated;
}

/** What POST /files/resync needs: the files, the queue, the clock and the minimum interval between re-syncs. */
export type ResyncRequestDeps = Pick<FileDeps, 'files' | 'queue' | 'clock'> & {
  config: { web: { resyncMinIntervalSeconds: number } };
};

/** A re-sync claim older than this is stale (its worker died): the longest a worker runs, 15 minutes. */
const STALE_RESYNC_CLAIM_MS = 15 * 60 * 1000;

/**
 * POST /files/resync/{id}: a ready `website`, `sitemap` or `website_bulk` file is fetched again by the
 * worker (ingest/resync-web.ts); answers the file as it is now. One re-sync at a time per file, and at
 * most one per `resyncMinIntervalSeconds`: the claim is one conditional write, cleared when the re-sync
 * ends (or stale after 15 minutes); a refused call is 429 rate_limited with Retry-After.
 */
export async function resyncFile(deps: ResyncRequestDeps, accountId: string, id: string): Promise<FileRecord> {
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
  await claimResync(deps, accountId, id);
  try {
    await deps.queue.send({ kind: 'file.resync', accountId, fileId: id } satisfies WorkMessage);
  } catch (error) {
    await deps.files.endResync(accountId, id);
    throw error;
  }
  return file;
}

/** Claims the file's re-sync, or throws a RateLimitedError saying what holds it and when to try again. */
async function claimResync(deps: ResyncRequestDeps, accountId: string, id: string): Promise<void> {
  const now = deps.clock.now().getTime();
  const intervalMs = deps.config.web.resyncMinIntervalSeconds * 1000;
  const at = (ms: number) => new Date(ms).toISOString();
  const claim = await deps.files.claimResync(accountId, id, {
    now: at(now),
    staleBefore: at(now - STALE_RESYNC_CLAIM_MS),
    intervalBefore: at(now - intervalMs),
  });
  if (claim.claimed) return;
  const since = (time: string | null) => (time ? Date.parse(time) : Number.NEGATIVE_INFINITY);
  const inFlight = since(claim.claimedAt) >= now - STALE_RESYNC_CLAIM_MS;
  const nextAt = Math.max(since(claim.lastResyncAt) + intervalMs, now + 1000);
  const problem = inFlight
    ? `file '${id}' is being synced again already; one re-sync of a file runs at a time`
    : claim.lastResyncAt
      ? `file '${id}' was synced again at ${claim.lastResyncAt}; it can be synced again from ${at(nextAt)}`
      : `file '${id}' is no longer ready; it can be synced again once it is ready`;
  const retryAfterSeconds = Math.max(1, Math.ceil((nextAt - now) / 1000));
  throw new RateLimitedError(`id: ${problem}`, { data: { retryAfterSeconds } });
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
