/**
 * The chunks a retrieval may answer, as the engine's allowed set (a mask and an ordinal list), kept per
 * loaded index and scope, so a warm filtered query does not visit every chunk record of the index to
 * know which it may answer (at 100,000 chunks that walk cost more than the ranking itself).
 *
 * Why a kept set stays right: the set depends on the loaded index (a new index version is a new entry),
 * the memory's excluded sources (removed files, detached and deleted sessions, deleted messages), the
 * time window, the filter's conditions and, for its source conditions, the allowed sources, which are
 * themselves kept per account source version (allowed-source-cache.ts): a new version's set is a new
 * object, hence a new key here. All of these are in the key; nothing else is read.
 */
import type { AllowedSet } from '../../engine';
import { PerIndexLru } from './per-index-lru';
import { type AllowedSources, filterKey, type SearchFilter } from './search-filter';

/** Scopes kept per loaded index (least recently used out first); each holds about 5 bytes per allowed chunk. */
const SCOPES_PER_INDEX = 32;

const cache = new PerIndexLru<AllowedSet>(SCOPES_PER_INDEX);

/** What decides which chunks of an index may be answered. */
export interface RetrievalScope {
  excluded: readonly string[];
  after?: string | undefined;
  before?: string | undefined;
  filter?: SearchFilter | undefined;
  /** The allowed sources of the filter's source conditions (one object per source version), if any. */
  sources: AllowedSources;
}

/** The allowed set of `scope` over `index` (its retrieval index): the kept one, or `build()`'s, kept for the next query. */
export function cachedAllowedChunks(index: object, scope: RetrievalScope, build: () => AllowedSet): AllowedSet {
  const key = JSON.stringify([
    [...scope.excluded].sort(),
    scope.after ?? null,
    scope.before ?? null,
    scope.filter ? filterKey(scope.filter) : null,
    scope.sources ? sourcesIdentity(scope.sources) : null,
  ]);
  const kept = cache.get(index, key);
  if (kept) return kept.value;
  const allowed = build();
  cache.set(index, key, allowed);
  return allowed;
}

const identities = new WeakMap<object, number>();
let lastIdentity = 0;

/** A number naming one allowed-sources set object (a set worked out again is another object, another number). */
function sourcesIdentity(sources: object): number {
  let identity = identities.get(sources);
  if (identity === undefined) identities.set(sources, (identity = ++lastIdentity));
  return identity;
}
