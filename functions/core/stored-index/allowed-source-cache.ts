/**
 * The allowed sources of a filter's source conditions, kept per loaded index and source version, so a
 * filtered query reads one version item instead of every file and session record of the index.
 *
 * Why a cached set stays right: it is worked out over the sources of one loaded index (a new index version
 * is a new entry), from the file records as of one account source version (FileStore.sourceVersion: every
 * create, delete and change of a file's fileType, sourceKey or metadata raises it, after the write, so a
 * query that starts after a change reads the new version and works the set out again), and session
 * metadata, written once when the session is created, cannot change under it.
 */
import type { AllowedSources, SearchFilter } from './search-filter';

/** Filters kept per loaded index (least recently used out first). */
const FILTERS_PER_INDEX = 64;

/** Keyed by the loaded index's retrieval index (one per index version): dropped with it. */
const byIndex = new WeakMap<object, Map<string, AllowedSources>>();

/**
 * The allowed sources for `filter` over `index` under source version `version`: the cached set, or
 * `resolve()`'s answer, kept for the next query.
 */
export async function cachedAllowedSources(
  index: object,
  version: number,
  filter: SearchFilter,
  resolve: () => Promise<AllowedSources>,
): Promise<AllowedSources> {
  let entries = byIndex.get(index);
  if (!entries) {
    entries = new Map();
    byIndex.set(index, entries);
  }
  const key = `${version}|${sourceConditionsKey(filter)}`;
  if (entries.has(key)) {
    const sources = entries.get(key);
    entries.delete(key); // moved to the end: most recently used
    entries.set(key, sources);
    return sources;
  }
  const sources = await resolve();
  entries.set(key, sources);
  for (const oldest of entries.keys()) {
    if (entries.size <= FILTERS_PER_INDEX) break;
    entries.delete(oldest);
  }
  return sources;
}

/** The source conditions of a filter as a canonical string (keys and values in a fixed order). */
function sourceConditionsKey(filter: SearchFilter): string {
  const sorted = (values: readonly string[] | undefined) => (values ? [...values].sort() : null);
  const metadata = filter.metadata
    ? Object.keys(filter.metadata)
        .sort()
        .map((key) => [key, sorted(filter.metadata?.[key])])
    : null;
  return JSON.stringify([sorted(filter.fileTypes), filter.sourceKeyPrefix ?? null, metadata]);
}
