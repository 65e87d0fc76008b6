/**
 * What every publish of a memory's index shares, the ingestion's build and the background merge alike:
 * the conditional write of the memory item naming the new version's folder, collecting the folders no
 * longer referenced, and asking for a merge when the new manifest calls for one (docs/segments.md).
 */
import type { Memory } from '../model';
import { objectKeys } from '../object-keys';
import type { MemoryStore, ObjectStore, QueuePort } from '../ports';
import { folderOf, graphFoldersOf, type IndexManifest, nameOf } from '../stored-index/manifest';
import { readSegmentFiles } from '../stored-index/segments';
import type { VectorIndexRef, VectorTierSetup } from '../vector-tier/ports';
import { keysOfRanges } from '../vector-tier/vector-keys';
import { graphMergeDue, mergeDue } from './merge-policy';
import { afterTierPublish, dropTier, memoryTierOwner, type TierOwner, tierRef } from './vector-placement';

export interface PublishDeps {
  memories: MemoryStore;
  objects: ObjectStore;
  queue: QueuePort;
  vectors?: VectorTierSetup;
}

/** A version as published (or about to be): its folder and manifest. */
export interface VersionRef {
  prefix: string;
  manifest: IndexManifest;
}

/**
 * After `published` (whose manifest is `current`) replaced `previous`: keeps both versions and their
 * segments and graph folders (a warm reader may still load the previous one); deletes every other folder of a version up
 * to the published one, so the folders of builds and merges that lost or crashed go too. Folders of
 * later versions (builds still running) are left alone; a tiered memory's collected segments take their
 * vectors with them, and generations no version names are dropped (vector-placement.ts). Then enqueues a merge when one is due.
 */
export async function afterPublish(deps: PublishDeps, published: Memory, current: VersionRef, previous?: VersionRef): Promise<void> {
  await afterTierPublish(deps, memoryTierOwner(published), current.manifest, previous?.manifest);
  await collectFolders(deps, published, current, previous);
  if (mergeDue(current.manifest.segments) || graphMergeDue(current.manifest))
    await deps.queue.send({ kind: 'memory.merge', accountId: published.accountId, memoryId: published.id });
}

/** Deletes every folder of a version up to the published one that neither `current` nor `previous` names. */
async function collectFolders(deps: PublishDeps, published: Memory, current: VersionRef, previous?: VersionRef): Promise<void> {
  const tiered = current.manifest.vectorTier;
  const ref = tiered ? tierRef(memoryTierOwner(published), tiered.generation) : undefined;
  const root = objectKeys.indexRoot(published.accountId, published.id);
  const keep = keptFolders(root, [current, previous]);
  const folders = new Set((await deps.objects.list(root)).map((key) => key.slice(root.length).split('/')[0] ?? ''));
  for (const folder of folders) {
    const version = Number(/^[vs](\d+)-/.exec(folder)?.[1] ?? Number.NaN);
    if (!Number.isInteger(version) || version > published.indexVersion || keep.has(folder)) continue;
    if (ref && folder.startsWith('s')) await forgetCollected(deps, ref, folderOf(root, folder), folder);
    await deps.objects.deletePrefix(folderOf(root, folder));
  }
}

/** The folders the versions name: their own, their segments' and their graph's base and deltas. */
function keptFolders(root: string, versions: ReadonlyArray<VersionRef | undefined>): Set<string> {
  const keep = new Set<string>();
  for (const version of versions) {
    if (!version) continue;
    keep.add(nameOf(root, version.prefix));
    for (const entry of version.manifest.segments) keep.add(entry.id);
    for (const folder of graphFoldersOf(version.manifest)) keep.add(folder);
  }
  return keep;
}

/**
 * Deletes from the published generation the vectors of a segment folder about to be collected (its
 * `files.json` names its ordinals); a moved-back memory's generations are dropped whole instead.
 */
async function forgetCollected(deps: PublishDeps, ref: VectorIndexRef, folder: string, segmentId: string): Promise<void> {
  const files = await readSegmentFiles(deps.objects, folder).catch(() => undefined); // a crash before its table: it put no vector
  const keys = files ? keysOfRanges(segmentId, files.values()) : [];
  if (deps.vectors && keys.length > 0) await deps.vectors.tier.delete(ref, keys);
}

/** A version written for a memory deleted meanwhile: its folders (written after the delete's sweep) and its index go. */
export async function forgetDeleted(
  deps: Pick<PublishDeps, 'objects' | 'vectors'>,
  owner: TierOwner,
  folders: readonly string[],
  vectorTier: IndexManifest['vectorTier'],
): Promise<void> {
  await Promise.all(folders.map((folder) => deps.objects.deletePrefix(folder)));
  if (vectorTier) await dropTier(deps, owner);
}

/** A memory deleted while a build or merge of it ran: everything under its index root (written after the delete's sweep) and its index generations go. */
export async function sweepDeleted(
  deps: Pick<PublishDeps, 'objects' | 'vectors'>,
  memory: Pick<Memory, 'accountId' | 'id'>,
): Promise<void> {
  await deps.objects.deletePrefix(objectKeys.indexRoot(memory.accountId, memory.id));
  await dropTier(deps, memoryTierOwner({ ...memory, indexVersion: 0 }));
}
