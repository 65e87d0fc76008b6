/**
 * The chunks a build replaces, as they are indexed now (docs/segments.md): a build that writes a new
 * segment for replaced sources hands them to `buildRetrievalIndex` as `previous`, so a chunk whose id, text
 * and title did not change keeps its vector and analyzed terms instead of being embedded again (with a
 * paid embedder, that is the bill). Only the segments holding live chunks of the replaced sources are read.
 */
import { mapConcurrently, STORE_CONCURRENCY } from '../concurrency';
import { mergeRetrievalIndexes, type RetrievalIndex } from '../../engine';
import type { ObjectStore } from '../ports';
import { folderOf, type SegmentEntry } from '../stored-index/manifest';
import { ordinalsOf, readSegmentIndex, type SegmentFiles } from '../stored-index/segments';

/**
 * One index of the live chunks of `replaced` sources in the current `segments` (`files[i]` is segment i's
 * table of sources); undefined when no segment holds any.
 */
export async function replacedChunksIndex(
  objects: ObjectStore,
  root: string,
  segments: readonly SegmentEntry[],
  files: readonly SegmentFiles[],
  replaced: ReadonlySet<string>,
): Promise<RetrievalIndex | undefined> {
  const holding = segments.flatMap((entry, i) => {
    const live = replacedOrdinals(entry, files[i] ?? new Map(), replaced);
    return live.size > 0 ? [{ entry, live }] : [];
  });
  if (holding.length === 0) return undefined;
  const indexes = await mapConcurrently(holding, STORE_CONCURRENCY, ({ entry }) => readSegmentIndex(objects, folderOf(root, entry.id)));
  if (indexes.length === 1) return indexes[0];
  const parts = indexes.map((index, i) => ({ index, deleted: othersThan(index.chunks.ids.length, holding[i]?.live ?? new Set()) }));
  return mergeRetrievalIndexes(parts);
}

/** The segment's live ordinals of the replaced sources (each looked up in its table: a build replaces few). */
function replacedOrdinals(entry: SegmentEntry, files: SegmentFiles, replaced: ReadonlySet<string>): Set<number> {
  const live = new Set<number>();
  const held = [...replaced].flatMap((sourceId) => files.get(sourceId) ?? []);
  if (held.length === 0) return live;
  const deleted = new Set(entry.deleted);
  for (const ordinal of ordinalsOf(held)) if (!deleted.has(ordinal)) live.add(ordinal);
  return live;
}

/** Every ordinal below `count` not in `kept`. */
function othersThan(count: number, kept: ReadonlySet<number>): Set<number> {
  const others = new Set<number>();
  for (let ordinal = 0; ordinal < count; ordinal++) if (!kept.has(ordinal)) others.add(ordinal);
  return others;
}
