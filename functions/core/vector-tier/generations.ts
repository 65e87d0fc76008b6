/** Every generation of a memory's vector index at once (index-names.ts says what a generation is). */
import type { VectorTier } from './ports';

/** Drops every generation of the memory's index (the memory is being deleted): an absent one is no error. */
export async function dropEveryGeneration(tier: VectorTier, memory: { accountId: string; memoryId: string }): Promise<void> {
  const base = { accountId: memory.accountId, memoryId: memory.memoryId };
  for (const generation of await tier.generations(base)) await tier.dropIndex(generation ? { ...base, generation } : base);
}
