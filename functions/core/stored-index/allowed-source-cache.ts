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
import { PerIndexLru } from './per-index-lru';
import { type AllowedSources, filterKey, type SearchFilter } from './search-filter';

/** Filters kept per loaded index (least recently used out first). */
const FILTERS_PER_INDEX = 64;

const cache = new PerIndexLru<AllowedSources>(FILTERS_PER_INDEX);

/**
 * The allowed sources for `filter` over `index` (the loaded index's retrieval index) under source
 * version `version`: the cached set, or `resolve()`'s answer, kept for the next query.
 */
export async function cachedAllowedSources(
  index: object,
  version: number,
  filter: SearchFilter,
  resolve: () => Promise<AllowedSources>,
): Promise<AllowedSources> {
  const key = `${version}|${filterKey(filter, true)}`;
  const kept = cache.get(index, key);
  if (kept) return kept.value;
  const sources = await resolve();
  cache.set(index, key, sources);
  return sources;
}
