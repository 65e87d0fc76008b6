/**
 * Erasure of superseded index versions (docs/backups.md). A publish keeps the version before it (and its
 * segments) for readers still loading it; when text was removed (a file or session left the memory, a
 * message was deleted), those still hold it. A memory's text leaves the live segments with the publish
 * that drops a whole segment, or with the purge merge that publish enqueues (docs/segments.md); that
 * publish queues `index.retire` KMEM_RETIRE_AFTER_SECONDS later, which deletes every version and segment
 * folder older than it that the memory's current version does not name: removed text is gone from the
 * bucket within that delay (plus queue latency), never waiting for a next publish. The memory's export
 * archives go too (they may hold the text): GET /memories/export answers such an export `failed`.
 * The account's message index (a manifest of segments too, message-index.ts) retires its folders before the
 * version the same way.
 *
 * Folders numbered as the retired version itself go too, all but its own: those of a build or merge that
 * started from the version before and lost the publish to it. Such a loser deletes what it wrote, but one
 * that crashed, or whose last write landed after the winner's publish collected the folder, leaves it; it
 * may hold the removed text (a merge that read it live), and no later publish need come to collect it.
 */
import { objectKeys } from '../object-keys';
import type { MemoryStore, MessageIndexStore, ObjectStore, QueuePort } from '../ports';
import type { WorkMessage } from '../work';
import { folderOf, graphFoldersOf, type IndexManifest, nameOf, readManifest } from '../stored-index/manifest';

type RetireMessage = Extract<WorkMessage, { kind: 'index.retire' }>;

export interface RetireDeps {
  memories: MemoryStore;
  messageIndexes: MessageIndexStore;
  objects: ObjectStore;
}

/** What queueing a retirement needs: the queue, and the delay (KMEM_RETIRE_AFTER_SECONDS, long enough for a warm reader to finish loading). */
export interface RetireQueueDeps {
  queue: QueuePort;
  config: { work: { retireAfterSeconds: number } };
}

/** Queues the retirement of the builds before `version` (of the memory's index, or of the account's message index). */
export async function queueRetirement(deps: RetireQueueDeps, target: Omit<RetireMessage, 'kind'>): Promise<void> {
  await deps.queue.send({ kind: 'index.retire', ...target } satisfies RetireMessage, { delaySeconds: deps.config.work.retireAfterSeconds });
}

export async function retireBuilds(deps: RetireDeps, message: RetireMessage): Promise<void> {
  const { accountId, memoryId, version } = message;
  if (memoryId) {
    const memory = await deps.memories.get(accountId, memoryId);
    if (!memory?.indexPrefix || memory.indexVersion < version) return;
    const root = objectKeys.indexRoot(accountId, memoryId);
    if (!(await retireBefore(deps.objects, root, memory.indexPrefix, message))) return; // replaced and collected meanwhile: the publish that did so retires again
    await deps.objects.deletePrefix(objectKeys.exportsPrefix(accountId, memoryId)); // archives may hold the removed text
    return;
  }
  const pointer = await deps.messageIndexes.get(accountId);
  if (pointer && pointer.version >= version)
    await retireBefore(deps.objects, objectKeys.messageIndexRoot(accountId), pointer.prefix, message);
}

/**
 * Deletes the folders under `root` numbered up to the retired version that neither the version published
 * at `prefix` (the current one) nor the retired one names (below it only, for a message queued without the
 * retired version's folder); false when the current version is gone.
 */
async function retireBefore(
  objects: ObjectStore,
  root: string,
  prefix: string,
  retired: Pick<RetireMessage, 'version' | 'prefix'>,
): Promise<boolean> {
  const current = await readManifest(objects, root, prefix);
  if (!current) return false;
  const kept = new Set(foldersNamed(root, prefix, current));
  const own = retired.prefix?.startsWith(root) ? retired.prefix : undefined;
  // the retired version may be the one before the current: readers may still load it
  const retiredManifest = own && own !== prefix ? await readManifest(objects, root, own) : undefined;
  if (own && retiredManifest) for (const name of foldersNamed(root, own, retiredManifest)) kept.add(name);
  await deleteFoldersBefore(objects, root, own ? retired.version + 1 : retired.version, kept);
  return true;
}

/** The folders a version names: its own, its segments' and its graph's. */
const foldersNamed = (root: string, prefix: string, manifest: IndexManifest): string[] => [
  nameOf(root, prefix),
  ...manifest.segments.map((entry) => entry.id),
  ...graphFoldersOf(manifest),
];

/** Deletes the version and segment folders (`v<n>-…/`, `s<n>-…/`) under `root` numbered below `version`, but those `kept`. */
export async function deleteFoldersBefore(
  objects: ObjectStore,
  root: string,
  version: number,
  kept: ReadonlySet<string> = new Set(),
): Promise<void> {
  const folders = new Set((await objects.list(root)).map((key) => key.slice(root.length).split('/')[0] ?? ''));
  for (const folder of folders) {
    const numbered = Number(/^[vs](\d+)-/.exec(folder)?.[1] ?? Number.NaN);
    if (Number.isInteger(numbered) && numbered < version && !kept.has(folder)) await objects.deletePrefix(folderOf(root, folder));
  }
}
