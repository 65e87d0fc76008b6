/** Every generation of a vector index at once (index-names.ts says what a generation is). */
import { baseRef } from './index-names';
import type { VectorIndexRef, VectorTier } from './ports';

/** Drops every generation of the index (a memory or an account being deleted): an absent one is no error. */
export async function dropEveryGeneration(tier: VectorTier, ref: VectorIndexRef): Promise<void> {
  const base = baseRef(ref);
  for (const generation of await tier.generations(base)) await tier.dropIndex(generation ? { ...base, generation } : base);
}
