/**
 * A tiered memory's semantic candidates (docs/scale.md): `QueryVectors` on its index, the answer kept to
 * the keys the loaded manifest holds live (the store's deletes lag the publish) and to the chunks the
 * query may answer. kmem's filter reaches the store as the sources it allows (`fileIds`, exact) when they
 * are few; otherwise (and for what only the chunk records decide: removed files, time windows) the store
 * is asked without it and the adapter widens, round by round, until enough hits pass the local predicate.
 */
import type { VectorSource } from '../../engine';
import type { VectorConditions, VectorIndexRef, VectorTier } from './ports';
import type { LiveKeys } from './vector-keys';

/** Sources a filter may name to the store in one `$in` (more: the query is post-filtered instead). */
export const STORE_FILTER_SOURCES = 100;
/** topK of one QueryVectors call at most (S3 Vectors' limit). */
const TOP_K = 100;

export interface TierSearch {
  tier: VectorTier;
  ref: VectorIndexRef;
  live: LiveKeys;
  /** Chunks (by ordinal) the query may answer; all when absent. */
  allow?: (ordinal: number) => boolean;
  /** The sources the query's filter allows; any when absent. */
  sources?: ReadonlySet<string>;
}

/** The vector source of one query over a tiered memory (one store query per query vector and depth). */
export function tierVectorSource(search: TierSearch): VectorSource {
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
  const { live, allow, sources } = search;
  const conditions: VectorConditions | undefined =
    sources && sources.size <= STORE_FILTER_SOURCES ? { fileIds: [...sources] } : undefined;
  const ordinals = new Map<string, number>();
  const answer = await search.tier.query(search.ref, {
    vector,
    topK,
    ...(conditions ? { conditions } : {}),
    accept: (hit) => {
      const ordinal = live.ordinalOf(hit.key);
      if (ordinal === undefined || (allow && !allow(ordinal))) return false;
      if (sources && !sources.has(hit.attributes.fileId)) return false;
      ordinals.set(hit.key, ordinal);
      return true;
    },
  });
  return answer.hits.map((hit) => ({ ordinal: ordinals.get(hit.key) ?? -1, score: 1 - hit.distance }));
}
