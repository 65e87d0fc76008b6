/**
 * The `messages.merge` work (docs/segments.md, "The account's message index"): rewrites the segments of
 * the account's message index that the merge policy (merge-policy.ts, the memories' one) picks as one new
 * segment without their deleted chunks, and publishes a version naming it in their place by the same
 * conditional write of the account's pointer as a `messages.sync` build. So tombstoned text (of deleted
 * messages and sessions) leaves the live segments here. A lost race (a build or another merge published
 * first) starts again from the new version; a crash before the publish leaves folders no version names,
 * which the next publish collects; a redelivered message finds nothing due, or merges what is due now.
 */
import { mergeRetrievalIndexes } from '../../engine';
import { objectKeys } from '../object-keys';
import type { IdGenerator } from '../ports';
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
import { accelerated, type MessagePublishDeps, publishMessageVersion } from './message-index-publish';
import { queueRetirement, type RetireQueueDeps } from './retire-builds';

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

/** One merge of the `picked` segments of the version `current`; false when another version was published first. */
async function mergeOnce(
  deps: MessageMergeDeps,
  accountId: string,
  current: { pointer: { version: number; prefix: string }; manifest: IndexManifest },
  picked: readonly string[],
): Promise<boolean> {
  const started = Date.now();
  const root = objectKeys.messageIndexRoot(accountId);
  const chosen = new Set(picked);
  const entries = current.manifest.segments.filter((entry) => chosen.has(entry.id));
  const loaded = await Promise.all(entries.map((entry) => readSegment(deps.objects, folderOf(root, entry.id))));
  const parts = loaded.map((segment, i) => ({ index: segment.retrieval, deleted: new Set(entries[i]?.deleted) }));
  const chunks = loaded.flatMap((segment, i) => segment.chunks.filter((_, ordinal) => !parts[i]?.deleted.has(ordinal)));
  const version = current.pointer.version + 1;
  const prefix = objectKeys.messageIndexPrefix(accountId, version, deps.ids.uuid());
  const folders = [prefix];
  let replacement: SegmentEntry | undefined;
  let bytes = 0;
  if (chunks.length > 0) {
    const live = current.manifest.segments.reduce((sum, entry) => sum + liveChunks(entry), 0);
    const retrieval = mergeRetrievalIndexes(parts, { acceleration: accelerated(live) });
    const segmentPrefix = objectKeys.messageIndexSegmentPrefix(accountId, version, deps.ids.uuid());
    folders.push(segmentPrefix);
    bytes = await writeSegment(deps.objects, segmentPrefix, chunks, retrieval);
    replacement = { id: nameOf(root, segmentPrefix), chunks: chunks.length, deleted: [], embedder: retrieval.embedder };
  }
  const manifest = replaced(current.manifest, chosen, replacement);
  await deps.objects.put(prefix + INDEX_FILES.manifest, encodeManifest(manifest), 'application/json');
  const next = { version, prefix, manifest, folders };
  if (!(await publishMessageVersion(deps, accountId, next, current))) return false;
  // a purge: the versions before still name the segments holding the erased text (docs/backups.md)
  if (entries.some((entry) => entry.purge)) await queueRetirement(deps, { accountId, version });
  const properties = { accountId, segments: entries.length, chunks: chunks.length, bytes };
  emitMetric('IndexMergeSeconds', (Date.now() - started) / 1000, { dimension: 'messages', properties });
  return true;
}
