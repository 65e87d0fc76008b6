/**
 * The hidden children of a sitemap or crawl: created with ids derived from their address (so a repeated
 * step creates nothing twice), counted on the parent as they are created and processed, and the parent
 * made ready (its tokens the sum of its pages') once every child has settled.
 */
import { createHash } from 'node:crypto';
import { ConflictError } from '../errors';
import type { FileRecord } from '../model';
import { objectKeys } from '../object-keys';
import type { Clock, ObjectStore, QueuePort } from '../ports';
import type { FileStore } from '../files/ports';
import { emptyFile } from '../files/file-records';
import type { WorkMessage } from '../work';

export interface HiddenFileDeps {
  files: FileStore;
  objects: ObjectStore;
  queue: QueuePort;
  clock: Clock;
}

export const childIdOf = (parentId: string, url: string): string =>
  `${parentId}.${createHash('sha256').update(url).digest('hex').slice(0, 16)}`;

/** Creates a pending `website` child per address (with its sitemap lastmod) and queues it; answers how many were new. */
export async function createPageChildren(
  deps: HiddenFileDeps,
  parent: FileRecord,
  entries: ReadonlyArray<{ url: string; lastmod?: string }>,
): Promise<number> {
  let created = 0;
  for (const { url, lastmod } of entries) {
    const child = { ...childFile(deps, parent, url), validators: lastmod ? { lastmod } : null };
    if (await createOnce(deps, child)) created += 1;
    await deps.queue.send({ kind: 'file.process', accountId: parent.accountId, fileId: child.id } satisfies WorkMessage);
  }
  return created;
}

/** Stores a page a crawl already read as a ready child (no second fetch); answers whether it was new. */
export async function createReadChild(
  deps: HiddenFileDeps,
  parent: FileRecord,
  page: { url: string; title: string; text: string; tokens: number; validators?: FileRecord['validators'] },
): Promise<boolean> {
  const child = childFile(deps, parent, page.url);
  const transcriptKey = objectKeys.transcript(parent.accountId, child.id);
  await deps.objects.put(transcriptKey, page.text, 'text/plain; charset=utf-8');
  return createOnce(deps, {
    ...child,
    name: page.title || child.name,
    state: 'ready',
    silverTranscriptKey: transcriptKey,
    length: page.text.length,
    size: Buffer.byteLength(page.text),
    tokens: page.tokens,
    validators: page.validators ?? null,
  });
}

function childFile(deps: HiddenFileDeps, parent: FileRecord, url: string): FileRecord {
  const now = deps.clock.now().toISOString();
  return {
    ...emptyFile(parent.accountId, childIdOf(parent.id, url), now, parent.originRegion),
    jobId: parent.jobId,
    numSpeakers: parent.numSpeakers,
    name: url.slice(0, 255),
    extension: 'html',
    fileType: 'website',
    category: 'web',
    externalUrl: url,
    source: parent.id,
    parentFileId: parent.id,
  };
}

async function createOnce(deps: HiddenFileDeps, child: FileRecord): Promise<boolean> {
  try {
    await deps.files.create(child);
  } catch (error) {
    if (error instanceof ConflictError) return false;
    throw error;
  }
  if (child.parentFileId) await deps.files.increment(child.accountId, child.parentFileId, 'hiddenFilesCreated', 1);
  return true;
}

/** A child reached ready or failed (exactly once): count it, and finish the parent after its last child. */
export async function childSettled(deps: HiddenFileDeps, child: FileRecord): Promise<void> {
  if (!child.parentFileId) return;
  const parent = await deps.files.increment(child.accountId, child.parentFileId, 'hiddenFilesProcessed', 1);
  if (parent) await finishParentIfDone(deps, parent);
}

/** Once every child settled: the parent is ready with its pages' tokens, or failed when none could be read. */
export async function finishParentIfDone(deps: HiddenFileDeps, parent: FileRecord): Promise<void> {
  if (parent.state !== 'processing' || parent.hiddenFilesTotal === 0) return;
  if (parent.hiddenFilesProcessed < parent.hiddenFilesTotal) return;
  const children = await deps.files.listChildren(parent.accountId, parent.id);
  const ready = children.filter((child) => child.state === 'ready');
  const now = deps.clock.now().toISOString();
  const changes: Partial<FileRecord> = ready.length
    ? {
        state: 'ready',
        tokens: ready.reduce((sum, child) => sum + (child.tokens ?? 0), 0),
        length: ready.reduce((sum, child) => sum + (child.length ?? 0), 0),
        updatedAt: now,
      }
    : { state: 'failed', error: `none of the ${children.length} pages could be read`, updatedAt: now };
  try {
    await deps.files.update(parent.accountId, parent.id, changes, ['processing']);
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error; // finished by a concurrent child
  }
}
