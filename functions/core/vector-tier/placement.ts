/**
 * When a memory's vectors move to the tier and back (stage option `vectors.tierThresholdChunks`,
 * `KMEM_VECTOR_TIER_THRESHOLD_CHUNKS`).
 */

/** Where a memory's vectors live. */
export type VectorPlacement = 'resident' | 'tier';

/** Below this share of the threshold a tiered memory moves back: a memory near the line does not flap. */
const MOVE_BACK_SHARE = 0.8;

/**
 * Where a memory of `chunks` chunks keeps its vectors, given where they are now: in the tier once past
 * `thresholdChunks`, back in its segments once below 80% of it.
 */
export function placementFor(chunks: number, current: VectorPlacement, thresholdChunks: number): VectorPlacement {
  if (current === 'resident') return chunks > thresholdChunks ? 'tier' : 'resident';
  return chunks < thresholdChunks * MOVE_BACK_SHARE ? 'resident' : 'tier';
}
