/**
 * What the next version of a memory's index is made of (docs/segments.md): the current segments, with the
 * chunks of sources replaced or removed by this build marked deleted (tombstones; a segment left with no
 * live chunk is dropped), and one new segment holding only the chunks this build adds. Only the small
 * source tables of the current segments are read, and, with an embedder, the retrieval index of those
 * holding replaced sources (their unchanged chunks keep their vectors: replaced-chunks.ts). When a current
 * segment's vectors come from another embedder than the configured one (or from a version written before
 * segments), the build is whole instead: one new segment of every live chunk, as before segments.
 */
import { mapConcurrently, STORE_CONCURRENCY } from '../concurrency';
import type { RetrievalIndex } from '../../engine';
import type { ObjectStore } from '../ports';
import type { StoredChunk } from '../stored-index/chunks';
import { folderOf, type IndexManifest, liveChunks, type SegmentEntry } from '../stored-index/manifest';
import { cachedSegmentFiles, readSegment, type SegmentFiles } from '../stored-index/segments';
import { replacedChunksIndex } from './replaced-chunks';
import { everySourceTombstones, touchedTombstones } from './segment-tombstones';

export interface PlanScope {
  /** The sources the memory holds now (the account's message index: every session, `EVERY_SOURCE`). */
  linked: Pick<ReadonlySet<string>, 'has'>;
  /** Chunks of sources entering the index with this build (replacing what it held of them). */
  added: ReadonlyMap<string, readonly StoredChunk[]>;
  /** Sources removed from the memory that this build leaves out. */
  excluded: ReadonlySet<string>;
  /** Sources or messages were deleted: tombstones of replaced sources are purged too (their old text may hold what was deleted). */
  erasing?: boolean;
  /** The configured embedder's name (null: none). */
  embedder: string | null;
  /**
   * Read the current index of the replaced sources so their unchanged chunks keep their vectors (default
   * true). The message index says false: a session's chunks are cheap to embed, and its segment may be large.
   */
  keepReplacedVectors?: boolean;
  /**
   * When given, the only sources that can have been replaced or have left the memory since the current
   * version (an ingestion's added sources and the memory's exclusions): each segment's table is looked up
   * for these alone, not visited whole, and `linked` is asked about these alone.
   */
  touched?: ReadonlySet<string>;
}

/** Every source is linked: what stays is all but what the build adds (the account's message index). */
export const EVERY_SOURCE: Pick<ReadonlySet<string>, 'has'> = { has: () => true };

export interface VersionPlan {
  /** The current segments that stay, with this build's tombstones. */
  kept: SegmentEntry[];
  /** The chunks of the segment this build writes (none: no segment). */
  segmentChunks: StoredChunk[];
  /** The sources whose chunks this build adds (the linked ones of `PlanScope.added` that have chunks). */
  addedSources: ReadonlySet<string>;
  /**
   * An earlier index whose vectors (and analyzed terms) the build keeps for chunks with the same id, text
   * and title: the replaced sources' current chunks, or a whole build's one earlier segment.
   */
  previous?: RetrievalIndex;
  chunkCount: number;
  fileCount: number;
  /** The version leaves out live text of removed sources (or, erasing, of replaced ones) that the current one holds. */
  dropsText: boolean;
}

export async function planVersion(
  objects: ObjectStore,
  root: string,
  current: IndexManifest | undefined,
  scope: PlanScope,
): Promise<VersionPlan> {
  const fresh = [...scope.added].filter(([fileId]) => scope.linked.has(fileId)).flatMap(([, chunks]) => chunks);
  const segments = current?.segments ?? [];
  if (segments.some((entry) => liveChunks(entry) > 0 && entry.embedder !== scope.embedder))
    return wholePlan(objects, root, segments, fresh, scope);
  const files = await mapConcurrently(segments, STORE_CONCURRENCY, (entry) => cachedSegmentFiles(objects, folderOf(root, entry.id)));
  const freshSources = new Set(fresh.map((chunk) => chunk.fileId));
  const { kept, fileCount, dropsText } = scope.touched
    ? touchedPlan(segments, files, scope, scope.touched, freshSources)
    : everySourcePlan(segments, files, scope, freshSources);
  const chunkCount = kept.reduce((sum, entry) => sum + liveChunks(entry), fresh.length);
  const previous =
    scope.embedder && scope.keepReplacedVectors !== false
      ? await replacedChunksIndex(objects, root, segments, files, freshSources)
      : undefined;
  return { kept, segmentChunks: fresh, addedSources: freshSources, ...(previous ? { previous } : {}), chunkCount, fileCount, dropsText };
}

type TombstonedPlan = Pick<VersionPlan, 'kept' | 'fileCount' | 'dropsText'>;

/** Every source of every segment visited: the memory's live sources counted one by one. */
function everySourcePlan(
  segments: readonly SegmentEntry[],
  files: readonly SegmentFiles[],
  scope: PlanScope,
  freshSources: ReadonlySet<string>,
): TombstonedPlan {
  const found = { liveSources: new Set(freshSources), dropsText: false };
  const kept = segments.flatMap((entry, i) => everySourceTombstones(entry, files[i] ?? new Map(), scope, found) ?? []);
  return { kept, fileCount: found.liveSources.size, dropsText: found.dropsText };
}

/** Only the touched sources looked up: the live sources summed from the segments' counts. */
function touchedPlan(
  segments: readonly SegmentEntry[],
  files: readonly SegmentFiles[],
  scope: PlanScope,
  touched: ReadonlySet<string>,
  freshSources: ReadonlySet<string>,
): TombstonedPlan {
  const found = { dropsText: false };
  const kept = segments.flatMap((entry, i) => touchedTombstones(entry, files[i] ?? new Map(), touched, scope, found) ?? []);
  const fileCount = kept.reduce((sum, entry) => sum + (entry.sources ?? 0), freshSources.size);
  return { kept, fileCount, dropsText: found.dropsText };
}

/** Every live chunk of the current segments that stays, then the added ones, as one new segment. */
async function wholePlan(
  objects: ObjectStore,
  root: string,
  segments: readonly SegmentEntry[],
  fresh: StoredChunk[],
  scope: PlanScope,
): Promise<VersionPlan> {
  const loaded = await mapConcurrently(segments, STORE_CONCURRENCY, (entry) => readSegment(objects, folderOf(root, entry.id)));
  const stays = (chunk: StoredChunk): boolean =>
    scope.linked.has(chunk.fileId) && !scope.added.has(chunk.fileId) && !scope.excluded.has(chunk.fileId);
  const live = loaded.flatMap((segment, i) => {
    const deleted = new Set(segments[i]?.deleted);
    return segment.chunks.filter((_, ordinal) => !deleted.has(ordinal));
  });
  const kept = live.filter(stays);
  const removed = (chunk: StoredChunk): boolean => !scope.linked.has(chunk.fileId) || scope.excluded.has(chunk.fileId);
  const dropsText = live.some((chunk) => !stays(chunk) && (removed(chunk) || scope.erasing === true));
  const segmentChunks = [...kept, ...fresh];
  const only = loaded.length === 1 ? loaded[0]?.retrieval : undefined;
  return {
    kept: [],
    segmentChunks,
    addedSources: new Set(fresh.map((chunk) => chunk.fileId)),
    ...(only ? { previous: only } : {}),
    chunkCount: segmentChunks.length,
    fileCount: new Set(segmentChunks.map((chunk) => chunk.fileId)).size,
    dropsText,
  };
}
