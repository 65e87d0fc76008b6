/**
 * A memory's vectors, or an account's message index's, in the vector tier (docs/scale.md): the writes a
 * build or a merge makes to its S3 Vectors index, and the deletes after it publishes.
 *
 * Generations: each move into the tier (and each change of embedder dimension) makes a new index, named
 * by a generation (`v<version>-<8 hex>`) that the manifest records; a memory already tiered writes into
 * the generation its current manifest names and never creates it again. So an index is only ever dropped
 * when no published version names it, and a build racing a move back can never make a dropped index
 * exist again.
 *
 * Before the publish: a build whose memory passes the threshold (or already tiered) puts its new
 * segment's vectors; a build that moves the memory into the tier first makes a new generation and puts
 * every live vector of the segments it keeps. Only then is the manifest (marked `vectorTier`) written and
 * published, so a crash mid-batch leaves vectors no published manifest holds live, which readers never
 * return; a redelivered message builds again. A build that loses the publish drops the generation it
 * made, or deletes its new segment's keys from the one it wrote into.
 *
 * After the publish: the keys the new manifest no longer holds live (tombstoned chunks, merged-away or
 * emptied segments) are deleted; every generation up to the published version but the one it names is
 * dropped (a move back drops the memory's index; a crashed or lost mover's generation goes too). The
 * folders a publish collects (crashed or lost builds, versions two back) have their keys deleted with
 * them (index-publish.ts), so a delete lost to a crash here is redone when its segment's folder goes.
 * Segments keep their own vectors: they are what merges rewrite and what a memory moving back reads.
 */
import { chunkVector, type RetrievalIndex } from '../../engine';
import { type Memory, sourceRefOf } from '../model';
import { objectKeys } from '../object-keys';
import type { IdGenerator, ObjectStore } from '../ports';
import type { StoredChunk } from '../stored-index/chunks';
import { folderOf, type IndexManifest, type SegmentEntry } from '../stored-index/manifest';
import { readSegment } from '../stored-index/segments';
import { dropEveryGeneration } from '../vector-tier/generations';
import { generationVersion, newGeneration } from '../vector-tier/index-names';
import { placementFor } from '../vector-tier/placement';
import type { TierVector, VectorIndexRef, VectorTier, VectorTierSetup } from '../vector-tier/ports';
import { keysLeftOut, keysOfSegment, vectorKey } from '../vector-tier/vector-keys';

export interface PlacementDeps {
  objects: ObjectStore;
  ids: IdGenerator;
  /** The vector tier, when the stage turns it on. */
  vectors?: VectorTierSetup;
}

/** A segment a build or merge writes, as the tier needs it. */
export interface NewSegment {
  id: string;
  retrieval: RetrievalIndex;
  chunks: readonly StoredChunk[];
  /** Ordinals already deleted when it is written (a message merge published on a later version): not put. */
  deleted?: readonly number[];
}

/**
 * Whose vectors a placement moves: a memory's, or an account's message index. `ref` names the index
 * (without a generation), `root` is the folder its segments live under, `version` its index version (the
 * one a build starts from; after a publish, the published one).
 */
export interface TierOwner {
  readonly ref: VectorIndexRef;
  readonly root: string;
  readonly version: number;
}

export const memoryTierOwner = (memory: Pick<Memory, 'accountId' | 'id' | 'indexVersion'>): TierOwner => ({
  ref: { accountId: memory.accountId, memoryId: memory.id },
  root: objectKeys.indexRoot(memory.accountId, memory.id),
  version: memory.indexVersion,
});

export const messageTierOwner = (accountId: string, version: number): TierOwner => ({
  ref: { accountId, messages: true },
  root: objectKeys.messageIndexRoot(accountId),
  version,
});

/** The owner's index of `generation` (none: the name made before generations). */
export const tierRef = (owner: TierOwner, generation?: string): VectorIndexRef => ({ ...owner.ref, ...(generation ? { generation } : {}) });

type TierMark = IndexManifest['vectorTier'];

/**
 * Puts what the next version needs in the tier, before it is published; answers the manifest's
 * `vectorTier` (undefined: the version's vectors stay in its segments).
 */
export async function placeVectors(
  deps: PlacementDeps,
  owner: TierOwner,
  next: { current: IndexManifest | undefined; kept: readonly SegmentEntry[]; added: NewSegment | undefined; chunkCount: number },
): Promise<TierMark> {
  const setup = deps.vectors;
  if (!setup) return undefined;
  const tiered = next.current?.vectorTier;
  if (placementFor(next.chunkCount, tiered ? 'tier' : 'resident', setup.thresholdChunks) === 'resident') return undefined;
  // another embedder's vectors (a whole rebuild): a new generation for the new dimension
  const addedDimension = next.added?.retrieval.vectors?.dimensions;
  const fresh = !tiered || (addedDimension !== undefined && addedDimension !== tiered.dimension);
  const moving = fresh ? next.kept : [];
  const first = moving[0] ? await readKept(deps, owner, moving[0]) : undefined;
  const dimension = addedDimension ?? tiered?.dimension ?? first?.retrieval.vectors?.dimensions;
  if (dimension === undefined) return undefined; // no embedder: nothing to tier
  const generation = fresh ? newGeneration(owner.version + 1, deps.ids.uuid()) : tiered?.generation;
  const ref = tierRef(owner, generation);
  if (fresh) await setup.tier.ensureIndex(ref, dimension);
  await putKept(deps, { tier: setup.tier, ref, owner }, moving, first);
  if (next.added) await putSegment(setup.tier, ref, next.added, liveIn({ deleted: next.added.deleted ?? [] }));
  return { dimension, ...(generation ? { generation } : {}) };
}

/**
 * Undoes the placement of a build or merge that lost the publish (it started from `started`): drops the
 * generation it made (no version names it), or deletes its new segment's keys from the one it wrote into.
 */
export async function forgetPlacement(
  deps: Pick<PlacementDeps, 'vectors'>,
  owner: TierOwner,
  lost: { started: IndexManifest | undefined; placed: TierMark; segment: { id: string; chunks: number } | undefined },
): Promise<void> {
  const tier = deps.vectors?.tier;
  if (!tier || !lost.placed) return;
  const ref = tierRef(owner, lost.placed.generation);
  if (lost.placed.generation !== lost.started?.vectorTier?.generation) return tier.dropIndex(ref);
  if (lost.segment) await tier.delete(ref, keysOfSegment(lost.segment.id, lost.segment.chunks));
}

/**
 * After `current` replaced `previous` (`published` owns it, at the published version): deletes the keys
 * the generation both name no longer holds live; drops every generation made up to the published version
 * but the one `current` names (all of them when the index moved back).
 */
export async function afterTierPublish(
  deps: Pick<PlacementDeps, 'vectors'>,
  published: TierOwner,
  current: IndexManifest,
  previous?: IndexManifest,
): Promise<void> {
  const setup = deps.vectors;
  if (!setup || (!current.vectorTier && !previous?.vectorTier)) return;
  const kept = current.vectorTier?.generation ?? '';
  if (current.vectorTier && previous?.vectorTier && kept === (previous.vectorTier.generation ?? '')) {
    const keys = keysLeftOut(previous, current);
    if (keys.length > 0) await setup.tier.delete(tierRef(published, kept), keys);
  }
  for (const generation of await setup.tier.generations(tierRef(published))) {
    const made = generationVersion(generation);
    // a build still running (a later version) keeps its own; the published version's stays
    if ((current.vectorTier && generation === kept) || made > published.version) continue;
    await setup.tier.dropIndex(tierRef(published, generation));
  }
}

/** Drops every generation of the owner's index (its memory is gone, or was deleted while a build ran). */
export async function dropTier(deps: Pick<PlacementDeps, 'vectors'>, owner: TierOwner): Promise<void> {
  if (deps.vectors) await dropEveryGeneration(deps.vectors.tier, owner.ref);
}

const readKept = (deps: PlacementDeps, owner: TierOwner, entry: SegmentEntry) => readSegment(deps.objects, folderOf(owner.root, entry.id));

/** Moving in: puts every live vector of the segments that stay, one segment in memory at a time (`first` already read). */
async function putKept(
  deps: PlacementDeps,
  to: { tier: VectorTier; ref: VectorIndexRef; owner: TierOwner },
  kept: readonly SegmentEntry[],
  first: Awaited<ReturnType<typeof readKept>> | undefined,
): Promise<void> {
  for (const [i, entry] of kept.entries()) {
    const segment = i === 0 && first ? first : await readKept(deps, to.owner, entry);
    await putSegment(to.tier, to.ref, { id: entry.id, ...segment }, liveIn(entry));
  }
}

/** Whether an ordinal of the segment is live (not tombstoned). */
function liveIn(entry: { readonly deleted: readonly number[] }): (ordinal: number) => boolean {
  const deleted = new Set(entry.deleted);
  return (ordinal) => !deleted.has(ordinal);
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
