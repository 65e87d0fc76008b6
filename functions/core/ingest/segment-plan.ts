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
import { cachedSegmentFiles, ordinalsOf, readSegment, type SegmentFiles } from '../stored-index/segments';
import { replacedChunksIndex } from './replaced-chunks';

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
}

/** Every source is linked: what stays is all but what the build adds (the account's message index). */
export const EVERY_SOURCE: Pick<ReadonlySet<string>, 'has'> = { has: () => true };

export interface VersionPlan {
  /** The current segments that stay, with this build's tombstones. */
  kept: SegmentEntry[];
  /** The chunks of the segment this build writes (none: no segment). */
  segmentChunks: StoredChunk[];
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
  const liveFiles = new Set(fresh.map((chunk) => chunk.fileId));
  const kept: SegmentEntry[] = [];
  const erased = { dropsText: false };
  segments.forEach((entry, i) => {
    const next = withTombstones(entry, files[i] ?? new Map(), scope, { liveFiles, erased });
    if (next) kept.push(next);
  });
  const chunkCount = kept.reduce((sum, entry) => sum + liveChunks(entry), fresh.length);
  const replaced = new Set(fresh.map((chunk) => chunk.fileId));
  const previous =
    scope.embedder && scope.keepReplacedVectors !== false ? await replacedChunksIndex(objects, root, segments, files, replaced) : undefined;
  return {
    kept,
    segmentChunks: fresh,
    ...(previous ? { previous } : {}),
    chunkCount,
    fileCount: liveFiles.size,
    dropsText: erased.dropsText,
  };
}

/**
 * The segment's entry with the chunks of replaced and removed sources marked deleted (removed ones, or any
 * when erasing, flag it for purging); undefined when nothing of it stays live. Adds the sources it keeps
 * to `found.liveFiles`; sets `found.erased.dropsText` when it tombstones text to erase.
 */
function withTombstones(
  entry: SegmentEntry,
  files: SegmentFiles,
  scope: PlanScope,
  found: { liveFiles: Set<string>; erased: { dropsText: boolean } },
): SegmentEntry | undefined {
  const { liveFiles, erased } = found;
  const deleted = new Set(entry.deleted);
  let purge = entry.purge === true;
  for (const [fileId, ranges] of files) {
    const removed = !scope.linked.has(fileId) || scope.excluded.has(fileId);
    if (!removed && !scope.added.has(fileId)) {
      // a source that stays: only whether it has a live chunk (its first one, usually), not every ordinal
      if (hasLiveOrdinal(ranges, deleted)) liveFiles.add(fileId);
      continue;
    }
    const ordinals = [...ordinalsOf(ranges)].filter((ordinal) => !deleted.has(ordinal));
    for (const ordinal of ordinals) deleted.add(ordinal);
    const erases = (removed || scope.erasing === true) && ordinals.length > 0;
    purge ||= erases;
    erased.dropsText ||= erases;
  }
  if (deleted.size >= entry.chunks) return undefined;
  const tombstones = [...deleted].sort((a, b) => a - b);
  return { id: entry.id, chunks: entry.chunks, deleted: tombstones, embedder: entry.embedder, ...(purge ? { purge } : {}) };
}

/** Whether one of the ranges' ordinals is not deleted (ranges flattened [start, end, …], end excluded). */
function hasLiveOrdinal(ranges: readonly number[], deleted: ReadonlySet<number>): boolean {
  for (let i = 0; i + 1 < ranges.length; i += 2) {
    const end = ranges[i + 1] ?? 0;
    for (let ordinal = ranges[i] ?? 0; ordinal < end; ordinal++) if (!deleted.has(ordinal)) return true;
  }
  return false;
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
    ...(only ? { previous: only } : {}),
    chunkCount: segmentChunks.length,
    fileCount: new Set(segmentChunks.map((chunk) => chunk.fileId)).size,
    dropsText,
  };
}
