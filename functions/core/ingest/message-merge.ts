/**
 * The `messages.merge` work (docs/segments.md, "The account's message index"): rewrites the segments of
 * the account's message index that the merge policy (merge-policy.ts, the memories' one) picks as one new
 * segment without their deleted chunks, and publishes a version naming it in their place by the same
 * conditional write of the account's pointer as a `messages.sync` build. So tombstoned text (of deleted
 * messages and sessions) leaves the live segments here. A merge that lost the publish to a sync (one may
 * come every second) is not done again: while the segments it merged are all still named, it is published
 * on the new version, the chunks deleted meanwhile marked deleted in the merged segment (written again:
 * the publish that won collected its folder); else it starts again from the new version. A crash before
 * the publish leaves folders no version names, which the next publish collects; a redelivered message
 * finds nothing due, or merges what is due now.
 */
import { mergeRetrievalIndexes, type RetrievalIndex } from '../../engine';
import { objectKeys } from '../object-keys';
import type { IdGenerator, MessageIndexPointer } from '../ports';
import type { StoredChunk } from '../stored-index/chunks';
import { INDEX_FILES } from '../stored-index/index-files';
import {
  encodeManifest,
  folderOf,
  type IndexManifest,
  liveChunks,
  nameOf,
  readManifest,
  type SegmentEntry,
} from '../stored-index/manifest';
import { readSegment, writeSegment } from '../stored-index/segments';
import type { WorkMessage } from '../work';
import { emitMetric } from '../metrics';
import { replaced } from './merge-memory';
import { pickMerge } from './merge-policy';
import { accelerated, type MessagePublishDeps, type MessageVersion, publishMessageVersion } from './message-index-publish';
import { queueRetirement, type RetireQueueDeps } from './retire-builds';
import { messageTierOwner, type NewSegment, placeVectors } from './vector-placement';

type MessagesMerge = Extract<WorkMessage, { kind: 'messages.merge' }>;

export type MessageMergeDeps = MessagePublishDeps & { ids: IdGenerator; config: RetireQueueDeps['config'] };

const ROUNDS = 8;
const PUBLISH_TRIES = 5;

/** Merges while a merge is due; answers how many were published. */
export async function mergeMessageIndex(deps: MessageMergeDeps, message: MessagesMerge): Promise<number> {
  const { accountId } = message;
  const root = objectKeys.messageIndexRoot(accountId);
  let merged = 0;
  for (let tries = 0; merged < ROUNDS && tries < ROUNDS + PUBLISH_TRIES; tries++) {
    const pointer = await deps.messageIndexes.get(accountId);
    if (!pointer) return merged;
    const manifest = await readManifest(deps.objects, root, pointer.prefix);
    if (!manifest) continue; // replaced and collected meanwhile: read the new one
    const picked = pickMerge(manifest.segments);
    if (!picked) return merged;
    const won = await mergeOnce(deps, accountId, { pointer, manifest }, picked).catch(async (error: unknown) => {
      // its segments were collected meanwhile (another version published): pick again from the new one
      if ((await deps.messageIndexes.get(accountId))?.version === pointer.version) throw error;
      return false;
    });
    if (won) merged++;
  }
  if (merged >= ROUNDS) await deps.queue.send(message); // more is due: go on in a message of its own
  return merged;
}

/** The picked segments merged in memory: their entries as read, the live chunks, and each one's ordinal map. */
interface Merged {
  entries: SegmentEntry[];
  chunks: StoredChunk[];
  retrieval: RetrievalIndex | undefined;
  /** Per picked segment: its ordinal → the merged segment's (-1: deleted when read). */
  ordinals: Int32Array[];
}

type Version = { pointer: MessageIndexPointer; manifest: IndexManifest };

/** One merge of the `picked` segments of the version `started`; false when it could not be published. */
async function mergeOnce(deps: MessageMergeDeps, accountId: string, started: Version, picked: readonly string[]): Promise<boolean> {
  const begun = Date.now();
  const merged = await mergePicked(deps, accountId, started.manifest, picked);
  let current: Version | undefined = started;
  for (let tries = 1; current && tries <= PUBLISH_TRIES; tries++) {
    const next = await writeMerged(deps, accountId, current, merged);
    if (!next) return false; // a merged segment left the index meanwhile: pick again
    if (await publishMessageVersion(deps, accountId, next, current)) {
      // a purge: the versions before still name the segments holding the erased text (docs/backups.md)
      if (merged.entries.some((entry) => entry.purge))
        await queueRetirement(deps, { accountId, version: next.version, prefix: next.prefix });
      const properties = { accountId, segments: merged.entries.length, chunks: merged.chunks.length, bytes: next.bytes, tries };
      emitMetric('IndexMergeSeconds', (Date.now() - begun) / 1000, { dimension: 'messages', properties });
      return true;
    }
    current = await currentVersion(deps, accountId);
  }
  return false;
}

async function currentVersion(deps: MessageMergeDeps, accountId: string): Promise<Version | undefined> {
  const pointer = await deps.messageIndexes.get(accountId);
  const manifest = pointer ? await readManifest(deps.objects, objectKeys.messageIndexRoot(accountId), pointer.prefix) : undefined;
  return pointer && manifest ? { pointer, manifest } : undefined;
}

async function mergePicked(deps: MessageMergeDeps, accountId: string, manifest: IndexManifest, picked: readonly string[]): Promise<Merged> {
  const root = objectKeys.messageIndexRoot(accountId);
  const chosen = new Set(picked);
  const entries = manifest.segments.filter((entry) => chosen.has(entry.id));
  const loaded = await Promise.all(entries.map((entry) => readSegment(deps.objects, folderOf(root, entry.id))));
  const parts = loaded.map((segment, i) => ({ index: segment.retrieval, deleted: new Set(entries[i]?.deleted) }));
  const chunks = loaded.flatMap((segment, i) => segment.chunks.filter((_, ordinal) => !parts[i]?.deleted.has(ordinal)));
  let next = 0;
  const ordinals = parts.map(({ index, deleted }) =>
    Int32Array.from(index.chunks.ids, (_, ordinal) => (deleted.has(ordinal) ? -1 : next++)),
  );
  const live = manifest.segments.reduce((sum, entry) => sum + liveChunks(entry), 0);
  const retrieval = chunks.length > 0 ? mergeRetrievalIndexes(parts, { acceleration: accelerated(live) }) : undefined;
  return { entries, chunks, retrieval, ordinals };
}

/**
 * Writes the merged segment and a manifest naming it in place of the merged ones, on the version
 * `current`: the chunks deleted in them since they were read are deleted in the merged segment (flagged
 * for purging when their segment was). Undefined when one of them is no longer named.
 */
async function writeMerged(
  deps: MessageMergeDeps,
  accountId: string,
  current: Version,
  merged: Merged,
): Promise<(MessageVersion & { bytes: number }) | undefined> {
  const root = objectKeys.messageIndexRoot(accountId);
  const chosen = new Set(merged.entries.map((entry) => entry.id));
  const now = current.manifest.segments.filter((entry) => chosen.has(entry.id));
  if (now.length !== merged.entries.length) return undefined;
  const { deleted, purge } = deletedSince(merged, now);
  const version = current.pointer.version + 1;
  const prefix = objectKeys.messageIndexPrefix(accountId, version, deps.ids.uuid());
  const folders = [prefix];
  let replacement: SegmentEntry | undefined;
  let added: NewSegment | undefined;
  let bytes = 0;
  if (merged.retrieval && deleted.length < merged.chunks.length) {
    const segmentPrefix = objectKeys.messageIndexSegmentPrefix(accountId, version, deps.ids.uuid());
    folders.push(segmentPrefix);
    bytes = await writeSegment(deps.objects, segmentPrefix, merged.chunks, merged.retrieval);
    const id = nameOf(root, segmentPrefix);
    replacement = { id, chunks: merged.chunks.length, deleted, embedder: merged.retrieval.embedder, ...(purge ? { purge } : {}) };
    added = { id, retrieval: merged.retrieval, chunks: merged.chunks, deleted };
  }
  const segments = replaced(current.manifest, chosen, replacement);
  const kept = segments.segments.filter((entry) => entry.id !== replacement?.id);
  const chunkCount = segments.segments.reduce((sum, entry) => sum + liveChunks(entry), 0);
  const owner = messageTierOwner(accountId, current.pointer.version);
  const vectorTier = await placeVectors(deps, owner, { current: current.manifest, kept, added, chunkCount });
  const manifest: IndexManifest = { ...segments, ...(vectorTier ? { vectorTier } : {}) };
  await deps.objects.put(prefix + INDEX_FILES.manifest, encodeManifest(manifest), 'application/json');
  const tierSegment = vectorTier && added ? { id: added.id, chunks: added.chunks.length } : undefined;
  return { version, prefix, manifest, folders, bytes, ...(tierSegment ? { tierSegment } : {}) };
}

/** The merged segment's ordinals of chunks deleted in the merged segments since they were read, and whether any was to purge. */
function deletedSince(merged: Merged, now: readonly SegmentEntry[]): { deleted: number[]; purge: boolean } {
  const deleted: number[] = [];
  let purge = false;
  for (const entry of now) {
    const map = merged.ordinals[merged.entries.findIndex((read) => read.id === entry.id)] ?? new Int32Array(0);
    const before = deleted.length;
    for (const ordinal of entry.deleted) {
      const at = map[ordinal] ?? -1;
      if (at >= 0) deleted.push(at); // live when read: deleted since
    }
    purge ||= entry.purge === true && deleted.length > before;
  }
  return { deleted: deleted.sort((a, b) => a - b), purge };
}
