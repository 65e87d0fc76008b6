/**
 * What every publish of an account's message index shares, the `messages.sync` build (message-index.ts)
 * and the `messages.merge` work (message-merge.ts) alike (docs/segments.md, "The account's message
 * index"): the conditional write of the account's pointer naming the new version's folder, collecting
 * the folders no version kept names, the vector tier's deletes and drops (vector-placement.ts), and
 * asking for a merge when the new manifest calls for one.
 */
import type { MessageIndexPointer, MessageIndexStore, ObjectStore, QueuePort } from '../ports';
import { objectKeys } from '../object-keys';
import { type IndexManifest, nameOf } from '../stored-index/manifest';
import { deleteFoldersBefore } from './retire-builds';
import { mergeDue } from './merge-policy';
import { afterTierPublish, forgetPlacement, messageTierOwner } from './vector-placement';
import type { VectorTierSetup } from '../vector-tier/ports';

export interface MessagePublishDeps {
  messageIndexes: MessageIndexStore;
  objects: ObjectStore;
  queue: QueuePort;
  /** The vector tier, when the stage turns it on (docs/scale.md). */
  vectors?: VectorTierSetup;
}

/** A version of the message index as written (or read): its folder, manifest and the folders it wrote. */
export interface MessageVersion {
  version: number;
  prefix: string;
  manifest: IndexManifest;
  /** Folders this build or merge wrote (deleted when it loses the publish). */
  folders: readonly string[];
  /** The new segment, when its vectors were put in the tier (deleted from it when it loses the publish). */
  tierSegment?: { id: string; chunks: number };
}

/** Above this many live messages every new segment carries an HNSW graph (searches stay fast on large accounts). */
const ACCELERATE_FROM = 20_000;

export const accelerated = (liveMessages: number): boolean => liveMessages >= ACCELERATE_FROM;

/**
 * Points the account at `next` unless another version was published since `started` (then deletes what
 * `next` wrote and answers false). After a publish, keeps `next` and the version before it (a warm reader
 * may still load it) with their segments, deletes every other folder numbered up to `next` (builds and
 * merges that lost or crashed), and enqueues a `messages.merge` when one is due.
 */
export async function publishMessageVersion(
  deps: MessagePublishDeps,
  accountId: string,
  next: MessageVersion,
  started: { pointer: MessageIndexPointer | undefined; manifest: IndexManifest | undefined },
): Promise<boolean> {
  const pointer = { version: next.version, prefix: next.prefix };
  if (!(await deps.messageIndexes.publish(accountId, started.pointer?.version ?? 0, pointer))) {
    await Promise.all(next.folders.map((folder) => deps.objects.deletePrefix(folder)));
    const lost = { started: started.manifest, placed: next.manifest.vectorTier, segment: next.tierSegment };
    await forgetPlacement(deps, messageTierOwner(accountId, started.pointer?.version ?? 0), lost);
    return false;
  }
  await afterTierPublish(deps, messageTierOwner(accountId, next.version), next.manifest, started.manifest);
  const root = objectKeys.messageIndexRoot(accountId);
  const keep = new Set(namesOf(root, next.prefix, next.manifest));
  if (started.pointer && started.manifest) for (const name of namesOf(root, started.pointer.prefix, started.manifest)) keep.add(name);
  await deleteFoldersBefore(deps.objects, root, next.version + 1, keep);
  if (mergeDue(next.manifest.segments)) await deps.queue.send({ kind: 'messages.merge', accountId });
  return true;
}

/** The folders a version names: its own and its segments'. */
const namesOf = (root: string, prefix: string, manifest: IndexManifest): string[] => [
  nameOf(root, prefix),
  ...manifest.segments.map((entry) => entry.id),
];
