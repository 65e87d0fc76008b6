/**
 * The `memory.merge` work (docs/segments.md): rewrites the segments the merge policy picks as one new
 * segment without their deleted chunks, and publishes a version naming it in their place by the same
 * conditional write as a build. A lost race (a build or another merge published first) starts again from
 * the new version; a crash before the publish leaves a folder no version names, which the next publish
 * collects; a redelivered message finds nothing due, or merges what is due now. Merges go on, one after
 * the other, while the policy asks for more (a cascade through the tiers), up to `ROUNDS` per message.
 */
import { ConflictError } from '../errors';
import type { Memory } from '../model';
import { objectKeys } from '../object-keys';
import type { IdGenerator } from '../ports';
import { mergeRetrievalIndexes } from '../../engine';
import { INDEX_FILES } from '../stored-index/index-files';
import { encodeManifest, folderOf, type IndexManifest, nameOf, readManifest, type SegmentEntry } from '../stored-index/manifest';
import { readSegment, writeSegment } from '../stored-index/segments';
import type { WorkMessage } from '../work';
import { afterPublish, forgetDeleted, type PublishDeps, sweepDeleted } from './index-publish';
import { graphMergeDue, pickMerge } from './merge-policy';
import { queueRetirement, type RetireQueueDeps } from './retire-builds';
import { emitMetric } from '../metrics';
import { mergedGraph } from './graph-version';
import { forgetPlacement, memoryTierOwner, type NewSegment, placeVectors } from './vector-placement';

type MergeMessage = Extract<WorkMessage, { kind: 'memory.merge' }>;

export type MergeDeps = PublishDeps & { ids: IdGenerator; config: RetireQueueDeps['config'] };

const ROUNDS = 8;
const PUBLISH_TRIES = 5;

/** Merges while a merge is due; answers how many were published. */
export async function mergeMemory(deps: MergeDeps, message: MergeMessage): Promise<number> {
  let merged = 0;
  for (let tries = 0; merged < ROUNDS && tries < ROUNDS + PUBLISH_TRIES; tries++) {
    const memory = await deps.memories.get(message.accountId, message.memoryId);
    if (!memory?.indexPrefix) return merged;
    const root = objectKeys.indexRoot(memory.accountId, memory.id);
    const manifest = await readManifest(deps.objects, root, memory.indexPrefix);
    const picked = manifest && dueMerge(manifest);
    if (!manifest || !picked) return merged;
    try {
      await mergeOnce(deps, memory, { prefix: memory.indexPrefix, manifest }, picked);
      merged++;
    } catch (error) {
      if ((await afterFailedMerge(deps, memory, error)) === 'gone') return merged;
    }
  }
  if (merged >= ROUNDS) await deps.queue.send(message); // more is due: go on in a message of its own
  return merged;
}

/** The segments to merge, none when only a graph's deltas are due to be folded; undefined when nothing is due. */
const dueMerge = (manifest: IndexManifest): string[] | undefined =>
  pickMerge(manifest.segments) ?? (graphMergeDue(manifest) ? [] : undefined);

/**
 * After a merge that failed: 'gone' when its memory was deleted meanwhile (what it wrote after the delete's
 * sweep is swept too); 'again' when another version was published meanwhile (lost the publish, or its
 * segments were collected: pick again from the new one); else the error stands.
 */
async function afterFailedMerge(deps: MergeDeps, memory: Memory, error: unknown): Promise<'gone' | 'again'> {
  const now = await deps.memories.get(memory.accountId, memory.id);
  if (!now) return (await sweepDeleted(deps, memory), 'gone');
  if (!(error instanceof ConflictError) && now.indexVersion === memory.indexVersion) throw error;
  return 'again';
}

async function mergeOnce(
  deps: MergeDeps,
  memory: Memory,
  current: { prefix: string; manifest: IndexManifest },
  picked: readonly string[],
): Promise<void> {
  const started = Date.now();
  const root = objectKeys.indexRoot(memory.accountId, memory.id);
  const chosen = new Set(picked);
  const entries = current.manifest.segments.filter((entry) => chosen.has(entry.id));
  const loaded = await Promise.all(entries.map((entry) => readSegment(deps.objects, folderOf(root, entry.id))));
  const parts = loaded.map((segment, i) => ({ index: segment.retrieval, deleted: new Set(entries[i]?.deleted) }));
  const chunks = loaded.flatMap((segment, i) => segment.chunks.filter((_, ordinal) => !parts[i]?.deleted.has(ordinal)));
  const version = memory.indexVersion + 1;
  const prefix = objectKeys.indexPrefix(memory.accountId, memory.id, version, deps.ids.uuid());
  const segmentPrefix = objectKeys.indexSegmentPrefix(memory.accountId, memory.id, version, deps.ids.uuid());
  let replacement: SegmentEntry | undefined;
  let added: NewSegment | undefined;
  let bytes = 0;
  if (chunks.length > 0) {
    const retrieval = mergeRetrievalIndexes(parts, { acceleration: memory.acceleration });
    bytes = await writeSegment(deps.objects, segmentPrefix, chunks, retrieval);
    replacement = { id: nameOf(root, segmentPrefix), chunks: chunks.length, deleted: [], embedder: retrieval.embedder };
    added = { id: replacement.id, retrieval, chunks };
  }
  const segments = replaced(current.manifest, chosen, replacement);
  const kept = segments.segments.filter((entry) => entry.id !== replacement?.id);
  const chunkCount = segments.segments.reduce((sum, entry) => sum + entry.chunks - entry.deleted.length, 0);
  const owner = memoryTierOwner(memory);
  const vectorTier = await placeVectors(deps, owner, { current: current.manifest, kept, added, chunkCount });
  // a graph memory's graph goes with every version: the one merged from, its deltas folded
  const graph = memory.memoryType === 'graph' ? await mergedGraph(deps.objects, root, current, prefix) : undefined;
  const manifest: IndexManifest = { ...segments, ...(vectorTier ? { vectorTier } : {}), ...(graph ? { graph } : {}) };
  await deps.objects.put(prefix + INDEX_FILES.manifest, encodeManifest(manifest), 'application/json');
  const published = await deps.memories
    .commitIndexVersion(memory.accountId, memory.id, {
      expectedVersion: memory.indexVersion,
      changes: { indexVersion: version, indexPrefix: prefix },
      excludedBuilt: [],
    })
    .catch(async (error: unknown) => {
      await Promise.all([deps.objects.deletePrefix(prefix), deps.objects.deletePrefix(segmentPrefix)]);
      await forgetPlacement(deps, owner, { started: current.manifest, placed: vectorTier, segment: replacement });
      throw error;
    });
  if (published) await afterPublish(deps, published, { prefix, manifest }, current);
  else await forgetDeleted(deps, owner, [prefix, segmentPrefix], vectorTier); // the memory was deleted meanwhile
  // a purge: the versions before still name the segments holding the erased text (docs/backups.md)
  if (published && entries.some((entry) => entry.purge))
    await queueRetirement(deps, { accountId: memory.accountId, memoryId: memory.id, version, prefix });
  const properties = { accountId: memory.accountId, memoryId: memory.id, segments: entries.length, chunks: chunks.length, bytes };
  emitMetric('IndexMergeSeconds', (Date.now() - started) / 1000, { dimension: memory.memoryType, properties });
}

/** The manifest with the chosen segments replaced by `replacement`, where the first of them stood. */
export function replaced(manifest: IndexManifest, chosen: ReadonlySet<string>, replacement: SegmentEntry | undefined): IndexManifest {
  const segments: SegmentEntry[] = [];
  let placed = false;
  for (const entry of manifest.segments) {
    if (!chosen.has(entry.id)) segments.push(entry);
    else if (!placed && replacement) {
      segments.push(replacement);
      placed = true;
    }
  }
  return { format: 1, segments };
}
