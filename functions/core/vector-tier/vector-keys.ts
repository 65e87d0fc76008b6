/**
 * The keys of a tiered memory's vectors, and which of them a published version holds live.
 *
 * A vector's key is its segment's folder name and its ordinal in that segment (`s12-<uuid>#407`): a
 * segment never changes, so a key names one chunk of one segment forever, a redelivered write of the same
 * segment rewrites the same keys, and a replaced chunk's old vector (same chunk id, older segment) never
 * collides with its new one. A reader keeps only the keys its manifest holds live (segment named, ordinal
 * not deleted): the store's deletes lag the publish, and a crashed build's vectors name no live segment.
 */
import type { IndexManifest, SegmentEntry } from '../stored-index/manifest';
import { ordinalsOf } from '../stored-index/segments';

const SEPARATOR = '#';

export const vectorKey = (segmentId: string, ordinal: number): string => `${segmentId}${SEPARATOR}${ordinal}`;

/** The keys of a segment's ordinals (the ranges of its `files.json`, flattened [start, end, …]). */
export function keysOfRanges(segmentId: string, ranges: Iterable<readonly number[]>): string[] {
  const keys: string[] = [];
  for (const range of ranges) for (const ordinal of ordinalsOf(range)) keys.push(vectorKey(segmentId, ordinal));
  return keys;
}

/** Every key of a segment of `chunks` chunks. */
export function keysOfSegment(segmentId: string, chunks: number): string[] {
  return Array.from({ length: chunks }, (_, ordinal) => vectorKey(segmentId, ordinal));
}

interface Placed {
  /** The ordinal of the segment's first live chunk in the composed index. */
  readonly base: number;
  readonly chunks: number;
  /** Deleted ordinals, ascending. */
  readonly deleted: readonly number[];
  readonly deletedSet: ReadonlySet<number>;
}

/**
 * The live keys of a manifest: key → ordinal of the composed index (the live chunks of every segment in
 * manifest order, docs/segments.md), or undefined when the manifest does not hold the key live.
 */
export class LiveKeys {
  private readonly segments = new Map<string, Placed>();

  constructor(manifest: IndexManifest) {
    let base = 0;
    for (const entry of manifest.segments) {
      this.segments.set(entry.id, { base, chunks: entry.chunks, deleted: entry.deleted, deletedSet: new Set(entry.deleted) });
      base += entry.chunks - entry.deleted.length;
    }
  }

  ordinalOf(key: string): number | undefined {
    const cut = key.lastIndexOf(SEPARATOR);
    const segment = cut > 0 ? this.segments.get(key.slice(0, cut)) : undefined;
    const ordinal = Number(key.slice(cut + 1));
    if (!segment || !Number.isInteger(ordinal) || ordinal < 0 || ordinal >= segment.chunks || segment.deletedSet.has(ordinal))
      return undefined;
    return segment.base + ordinal - deletedBelow(segment.deleted, ordinal);
  }
}

/** How many of the ascending `deleted` are below `ordinal`. */
function deletedBelow(deleted: readonly number[], ordinal: number): number {
  let low = 0;
  let high = deleted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((deleted[mid] ?? 0) < ordinal) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * The keys `current` no longer holds live that `previous` did: the ordinals it newly deleted in segments
 * both name, and every live key of segments it dropped (merged away, or left with no live chunk).
 */
export function keysLeftOut(previous: IndexManifest, current: IndexManifest): string[] {
  const now = new Map<string, SegmentEntry>(current.segments.map((entry) => [entry.id, entry]));
  const keys: string[] = [];
  for (const entry of previous.segments) {
    const after = now.get(entry.id);
    const before = new Set(entry.deleted);
    if (!after) {
      for (let ordinal = 0; ordinal < entry.chunks; ordinal++) if (!before.has(ordinal)) keys.push(vectorKey(entry.id, ordinal));
      continue;
    }
    for (const ordinal of after.deleted) if (!before.has(ordinal)) keys.push(vectorKey(entry.id, ordinal));
  }
  return keys;
}
