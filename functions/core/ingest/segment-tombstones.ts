/**
 * A current segment as the next version keeps it (docs/segments.md, "A build"): the chunks of sources this
 * build replaces or that left the memory marked deleted. Two ways of finding them: visiting every source
 * of the segment's table (`everySourceTombstones`: a first build, a reindex, a restore, a message index),
 * or, when the build knows which sources may have changed (an ingestion: its added sources and the
 * memory's exclusions), looking only those up (`touchedTombstones`), so a one-file build costs the same
 * in a memory of 2,000 chunks and of 500,000. Both keep the entry's count of live sources (`sources`),
 * from which the memory's `fileCount` is summed without visiting every source.
 */
import type { SegmentEntry } from '../stored-index/manifest';
import { ordinalsOf, type SegmentFiles } from '../stored-index/segments';

/** What decides a source's fate in the next version. */
export interface TombstoneScope {
  /** The sources the memory holds now (asked only for `touched` ones when those are given). */
  linked: Pick<ReadonlySet<string>, 'has'>;
  /** Sources entering the index with this build (replacing what it held of them). */
  added: Pick<ReadonlyMap<string, unknown>, 'has'>;
  /** Sources removed from the memory that this build leaves out. */
  excluded: ReadonlySet<string>;
  /** Sources or messages were deleted: tombstones of replaced sources are purged too. */
  erasing?: boolean;
}

/** What the tombstoning found over all segments. */
export interface TombstoneFindings {
  /** Some live text of a removed source (or, erasing, of a replaced one) is tombstoned. */
  dropsText: boolean;
}

/** Whether the source leaves the memory with this build. */
const removedSource = (scope: TombstoneScope, sourceId: string): boolean => !scope.linked.has(sourceId) || scope.excluded.has(sourceId);

/**
 * The segment's entry with the chunks of replaced and removed sources marked deleted, visiting every source
 * of its table; undefined when nothing of it stays live. Adds the sources it keeps to `liveSources`.
 */
export function everySourceTombstones(
  entry: SegmentEntry,
  files: SegmentFiles,
  scope: TombstoneScope,
  found: TombstoneFindings & { liveSources: Set<string> },
): SegmentEntry | undefined {
  const deleted = new Set(entry.deleted);
  let purge = entry.purge === true;
  let sources = 0;
  for (const [sourceId, ranges] of files) {
    const removed = removedSource(scope, sourceId);
    if (!removed && !scope.added.has(sourceId)) {
      // a source that stays: only whether it has a live chunk (its first one, usually), not every ordinal
      if (hasLiveOrdinal(ranges, deleted)) found.liveSources.add(sourceId), sources++;
      continue;
    }
    const erases = tombstone(ranges, deleted) > 0 && (removed || scope.erasing === true);
    purge ||= erases;
    found.dropsText ||= erases;
  }
  if (deleted.size >= entry.chunks) return undefined;
  const tombstones = [...deleted].sort((a, b) => a - b);
  return { id: entry.id, chunks: entry.chunks, deleted: tombstones, embedder: entry.embedder, ...(purge ? { purge } : {}), sources };
}

/**
 * The segment's entry with the chunks of the `touched` sources that are replaced or removed marked deleted,
 * looking each up in its table (no other source can have changed); the same entry when none is live in it,
 * undefined when nothing of it stays live.
 */
export function touchedTombstones(
  entry: SegmentEntry,
  files: SegmentFiles,
  touched: Iterable<string>,
  scope: TombstoneScope,
  found: TombstoneFindings,
): SegmentEntry | undefined {
  const before = entry.sources ?? liveSourceCount(files, new Set(entry.deleted));
  let deleted: Set<number> | undefined;
  let purge = entry.purge === true;
  let left = 0;
  for (const sourceId of touched) {
    const ranges = files.get(sourceId);
    const removed = removedSource(scope, sourceId);
    if (!ranges || (!removed && !scope.added.has(sourceId))) continue;
    deleted ??= new Set(entry.deleted);
    if (tombstone(ranges, deleted) === 0) continue;
    left++;
    const erases = removed || scope.erasing === true;
    purge ||= erases;
    found.dropsText ||= erases;
  }
  if (!deleted || left === 0) return entry.sources === undefined ? { ...entry, sources: before } : entry;
  if (deleted.size >= entry.chunks) return undefined;
  const tombstones = [...deleted].sort((a, b) => a - b);
  const kept = { id: entry.id, chunks: entry.chunks, deleted: tombstones, embedder: entry.embedder };
  return { ...kept, ...(purge ? { purge } : {}), sources: before - left };
}

/** Marks the ranges' live ordinals deleted; answers how many were live. */
function tombstone(ranges: readonly number[], deleted: Set<number>): number {
  let count = 0;
  for (const ordinal of ordinalsOf(ranges)) if (!deleted.has(ordinal)) deleted.add(ordinal), count++;
  return count;
}

/** How many sources of the table have a live chunk. */
function liveSourceCount(files: SegmentFiles, deleted: ReadonlySet<number>): number {
  let count = 0;
  for (const ranges of files.values()) if (hasLiveOrdinal(ranges, deleted)) count++;
  return count;
}

/** Whether one of the ranges' ordinals is not deleted (ranges flattened [start, end, …], end excluded). */
function hasLiveOrdinal(ranges: readonly number[], deleted: ReadonlySet<number>): boolean {
  for (let i = 0; i + 1 < ranges.length; i += 2) {
    const end = ranges[i + 1] ?? 0;
    for (let ordinal = ranges[i] ?? 0; ordinal < end; ordinal++) if (!deleted.has(ordinal)) return true;
  }
  return false;
}
