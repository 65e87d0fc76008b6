/**
 * A memory's vectors in the vector tier (docs/scale.md): the writes a build or a merge makes to its
 * S3 Vectors index, and the deletes after it publishes.
 *
 * Before the publish: a build whose memory passes the threshold (or already tiered) puts its new
 * segment's vectors; a build that moves the memory into the tier first puts every live vector of the
 * segments it keeps. Only then is the manifest (marked `vectorTier`) written and published, so a crash
 * mid-batch leaves vectors no published manifest holds live, which readers never return; a redelivered
 * message builds again and puts again (a put overwrites by key). A build that loses the publish deletes
 * its new segment's keys.
 *
 * After the publish: the keys the new manifest no longer holds live (tombstoned chunks, merged-away or
 * emptied segments) are deleted; a memory moved back below the threshold has its index dropped. The
 * folders a publish collects (crashed or lost builds, versions two back) have their keys deleted with
 * them (index-publish.ts), so a delete lost to a crash here is redone when its segment's folder goes.
 * Segments keep their own vectors: they are what merges rewrite and what a memory moving back reads.
 */
import { chunkVector, type RetrievalIndex } from '../../engine';
import { type Memory, sourceRefOf } from '../model';
import { objectKeys } from '../object-keys';
import type { ObjectStore } from '../ports';
import type { StoredChunk } from '../stored-index/chunks';
import { folderOf, type IndexManifest, type SegmentEntry } from '../stored-index/manifest';
import { readSegment } from '../stored-index/segments';
import { placementFor } from '../vector-tier/placement';
import type { TierVector, VectorIndexRef, VectorTier, VectorTierSetup } from '../vector-tier/ports';
import { keysLeftOut, keysOfSegment, vectorKey } from '../vector-tier/vector-keys';

export interface PlacementDeps {
  objects: ObjectStore;
  /** The vector tier, when the stage turns it on. */
  vectors?: VectorTierSetup;
}

/** A segment a build or merge writes, as the tier needs it. */
export interface NewSegment {
  id: string;
  retrieval: RetrievalIndex;
  chunks: readonly StoredChunk[];
}

export const tierRef = (memory: Pick<Memory, 'accountId' | 'id'>): VectorIndexRef => ({ accountId: memory.accountId, memoryId: memory.id });

/**
 * Puts what the next version needs in the tier, before it is published; answers the manifest's
 * `vectorTier` (undefined: the version's vectors stay in its segments).
 */
export async function placeVectors(
  deps: PlacementDeps,
  memory: Memory,
  next: { current: IndexManifest | undefined; kept: readonly SegmentEntry[]; added: NewSegment | undefined; chunkCount: number },
): Promise<IndexManifest['vectorTier']> {
  const setup = deps.vectors;
  if (!setup) return undefined;
  const tiered = next.current?.vectorTier !== undefined;
  if (placementFor(next.chunkCount, tiered ? 'tier' : 'resident', setup.thresholdChunks) === 'resident') return undefined;
  const root = objectKeys.indexRoot(memory.accountId, memory.id);
  // another embedder's vectors (a whole rebuild): the index is made again for the new dimension
  const addedDimension = next.added?.retrieval.vectors?.dimensions;
  const redimensioned = tiered && addedDimension !== undefined && addedDimension !== next.current?.vectorTier?.dimension;
  const moving = tiered && !redimensioned ? [] : next.kept;
  const read = (entry: SegmentEntry) => readSegment(deps.objects, folderOf(root, entry.id));
  let first = moving[0] ? await read(moving[0]) : undefined;
  const dimension = addedDimension ?? next.current?.vectorTier?.dimension ?? first?.retrieval.vectors?.dimensions;
  if (dimension === undefined) return undefined; // no embedder: nothing to tier
  const ref = tierRef(memory);
  if (redimensioned) await setup.tier.dropIndex(ref);
  await setup.tier.ensureIndex(ref, dimension);
  // moving in: every live vector of the segments that stay, one segment in memory at a time
  for (const entry of moving) {
    const segment = first ?? (await read(entry));
    first = undefined;
    const deleted = new Set(entry.deleted);
    await putSegment(setup.tier, ref, { id: entry.id, ...segment }, (ordinal) => !deleted.has(ordinal));
  }
  if (next.added) await putSegment(setup.tier, ref, next.added, () => true);
  return { dimension };
}

/** Deletes the keys of a segment that will never be published (a build or merge that lost the publish). */
export async function forgetSegment(
  deps: PlacementDeps,
  memory: Memory,
  segment: { id: string; chunks: number } | undefined,
): Promise<void> {
  if (deps.vectors && segment) await deps.vectors.tier.delete(tierRef(memory), keysOfSegment(segment.id, segment.chunks));
}

/** After `current` replaced `previous`: deletes the keys it no longer holds live, or drops the index when it left the tier. */
export async function afterTierPublish(
  deps: PlacementDeps,
  memory: Memory,
  current: IndexManifest,
  previous?: IndexManifest,
): Promise<void> {
  const setup = deps.vectors;
  if (!setup || !previous?.vectorTier) return;
  if (!current.vectorTier) return setup.tier.dropIndex(tierRef(memory));
  const keys = keysLeftOut(previous, current);
  if (keys.length > 0) await setup.tier.delete(tierRef(memory), keys);
}

/** Drops a memory's index (the memory is gone, or was deleted while a build ran). */
export async function dropTier(deps: PlacementDeps, memory: Pick<Memory, 'accountId' | 'id'>): Promise<void> {
  await deps.vectors?.tier.dropIndex(tierRef(memory));
}

/** Vectors made and put at once: a large segment's move never holds all its float vectors in memory. */
const PUT_SLICE = 5_000;

/** Puts the segment's vectors of the ordinals `live` keeps, with what kmem's filters test, a slice at a time. */
async function putSegment(tier: VectorTier, ref: VectorIndexRef, segment: NewSegment, live: (ordinal: number) => boolean) {
  for (let start = 0; start < segment.chunks.length; start += PUT_SLICE) {
    const vectors: TierVector[] = [];
    for (let ordinal = start; ordinal < Math.min(segment.chunks.length, start + PUT_SLICE); ordinal++) {
      const chunk = segment.chunks[ordinal];
      const values = chunk && live(ordinal) ? chunkVector(segment.retrieval, ordinal) : undefined;
      if (chunk && values) vectors.push({ key: vectorKey(segment.id, ordinal), values, attributes: attributesOf(chunk) });
    }
    if (vectors.length > 0) await tier.put(ref, vectors);
  }
}

function attributesOf(chunk: StoredChunk): TierVector['attributes'] {
  const source = sourceRefOf(chunk.fileId);
  const message = chunk.message;
  return {
    fileId: chunk.fileId,
    ...(source.kind === 'session' ? { sessionId: source.sessionId } : {}),
    ...(message?.customerUserId ? { userId: message.customerUserId } : {}),
    ...(message ? { role: message.role } : {}),
    ...(message && Number.isFinite(Date.parse(message.createdAt)) ? { createdAt: Date.parse(message.createdAt) } : {}),
  };
}
