/**
 * A tiered memory's semantic candidates (docs/scale.md): `QueryVectors` on its index, the answer kept to
 * the keys the loaded manifest holds live (the store's deletes lag the publish) and to the chunks the
 * query may answer (the use case's predicate over chunk records). kmem's filter reaches the store where
 * it maps exactly (`storeConditions`): sessions, customer users and roles, and the sources a file-type,
 * source-key or metadata condition resolved to, when at most 100. The rest (a filter's `fileIds`, which
 * also match a crawl's pages; more sources; removed files; time windows) the store is not asked: the
 * adapter asks 100 at a time, leaving out the keys seen, until enough hits pass the local predicate.
 */
import type { VectorSource } from '../../engine';
import type { LoadedIndex } from '../stored-index/index-cache';
import type { AllowedSources, SearchFilter } from '../stored-index/search-filter';
import type { VectorConditions, VectorIndexRef, VectorTier, VectorTierSetup } from './ports';
import type { LiveKeys } from './vector-keys';

/** Sources a filter may name to the store in one `$in` (more: the query is post-filtered instead). */
const STORE_FILTER_SOURCES = 100;
/** topK of one QueryVectors call at most (S3 Vectors' limit). */
const TOP_K = 100;

interface TierSearch {
  tier: VectorTier;
  ref: VectorIndexRef;
  live: LiveKeys;
  /** Chunks (by ordinal) the query may answer; all when absent. */
  allow?: (ordinal: number) => boolean;
  /** What the store is asked to filter (storeConditions). */
  conditions?: VectorConditions;
}

/**
 * The vector source of one query of a loaded index (a memory's, or an account's message index): the
 * tier's index of the generation the loaded version names, when that version is tiered and the stage has
 * the tier; undefined otherwise (the index's own vectors are searched).
 */
export function tierSourceOf(
  setup: VectorTierSetup | undefined,
  index: Pick<LoadedIndex, 'vectorTier'>,
  query: { ref: VectorIndexRef; allow?: ((ordinal: number) => boolean) | undefined; filter?: SearchFilter; sources: AllowedSources },
): VectorSource | undefined {
  if (!setup || !index.vectorTier) return undefined;
  const conditions = storeConditions(query.filter, query.sources);
  return tierVectorSource({
    tier: setup.tier,
    ref: index.vectorTier.generation ? { ...query.ref, generation: index.vectorTier.generation } : query.ref,
    live: index.vectorTier.live,
    ...(query.allow ? { allow: query.allow } : {}),
    ...(conditions ? { conditions } : {}),
  });
}

/** The part of a search filter the store answers exactly (the rest is checked by `allow`). */
export function storeConditions(filter: SearchFilter | undefined, sources: AllowedSources): VectorConditions | undefined {
  const conditions: VectorConditions = {
    ...(filter?.sessionIds ? { sessionIds: filter.sessionIds } : {}),
    ...(filter?.customerUserIds ? { userIds: filter.customerUserIds } : {}),
    ...(filter?.roles ? { roles: filter.roles } : {}),
    ...(sources && sources.size <= STORE_FILTER_SOURCES ? { fileIds: [...sources] } : {}),
  };
  return Object.keys(conditions).length > 0 ? conditions : undefined;
}

/** The vector source of one query over a tiered memory (one store query per query vector and depth). */
function tierVectorSource(search: TierSearch): VectorSource {
  const asked = new Map<string, ReturnType<VectorSource>>();
  return (queryVector, k) => {
    const topK = Math.min(TOP_K, Math.max(1, k));
    const key = `${topK}:${queryVector.join(',')}`;
    let answer = asked.get(key);
    if (!answer) asked.set(key, (answer = nearest(search, queryVector, topK)));
    return answer;
  };
}

async function nearest(search: TierSearch, vector: Float32Array, topK: number) {
  const { live, allow, conditions } = search;
  const ordinals = new Map<string, number>();
  const answer = await search.tier.query(search.ref, {
    vector,
    topK,
    ...(conditions ? { conditions } : {}),
    accept: (hit) => {
      const ordinal = live.ordinalOf(hit.key);
      if (ordinal === undefined || (allow && !allow(ordinal))) return false;
      ordinals.set(hit.key, ordinal);
      return true;
    },
  });
  return answer.hits.map((hit) => ({ ordinal: ordinals.get(hit.key) ?? -1, score: 1 - hit.distance }));
}
