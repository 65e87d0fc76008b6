/**
 * Which segments of a memory's index the background merge rewrites next (docs/segments.md), a tiered
 * policy after Lucene's: a segment's size is its live chunks, floored at `floorChunks`; sizes fall into
 * tiers `segmentsPerTier` times apart; when a tier holds `segmentsPerTier` segments they merge into one
 * of the next tier. So a chunk is rewritten about once per tier, O(log n) times over its life, and a
 * memory holds at most about `segmentsPerTier` segments per tier.
 *
 * Before that, purges: segments holding tombstones of sources removed from the memory (their text must be
 * gone from every live segment after the next merge), or whose deleted share passed `maxDeletedShare`
 * (replaced files' old chunks), are rewritten without their deleted chunks.
 */
import { type IndexManifest, liveChunks, type SegmentEntry } from '../stored-index/manifest';

const MERGE_POLICY = Object.freeze({ segmentsPerTier: 8, floorChunks: 2_000, maxDeletedShare: 0.33 });

/** The ids of the segments the next merge rewrites together, in manifest order; undefined when none need to. */
export function pickMerge(segments: readonly SegmentEntry[], policy = MERGE_POLICY): string[] | undefined {
  const purged = segments.filter((entry) => entry.purge === true || entry.deleted.length > policy.maxDeletedShare * entry.chunks);
  if (purged.length > 0) return purged.map((entry) => entry.id);
  const tiers = new Map<number, SegmentEntry[]>();
  for (const entry of segments) {
    const tier = tierOf(liveChunks(entry), policy);
    tiers.set(tier, [...(tiers.get(tier) ?? []), entry]);
  }
  const full = [...tiers].filter(([, members]) => members.length >= policy.segmentsPerTier).sort(([a], [b]) => a - b)[0];
  return full?.[1].map((entry) => entry.id);
}

function tierOf(live: number, policy: typeof MERGE_POLICY): number {
  const size = Math.max(live, policy.floorChunks);
  return Math.floor(Math.log(size / policy.floorChunks) / Math.log(policy.segmentsPerTier) + 1e-9);
}

/** Whether a merge is due: the publish of `segments` enqueues one when so. */
export const mergeDue = (segments: readonly SegmentEntry[]): boolean => pickMerge(segments) !== undefined;

/**
 * A graph memory's graph deltas the background merge folds into a new base (docs/segments.md): from this
 * many deltas, or deltas this share of the base's bytes. A build past twice these writes the graph whole
 * itself (graph-version.ts), so a chain stays bounded when merges lag.
 */
export const GRAPH_MERGE_POLICY = Object.freeze({ deltas: 8, deltaShare: 0.25 });

/** Whether the version's graph deltas are due to be folded into a new base. */
export function graphMergeDue(manifest: IndexManifest, policy = GRAPH_MERGE_POLICY): boolean {
  const chain = manifest.graph;
  if (!chain || chain.deltas.length === 0) return false;
  return chain.deltas.length >= policy.deltas || chain.deltaBytes > chain.baseBytes * policy.deltaShare;
}
