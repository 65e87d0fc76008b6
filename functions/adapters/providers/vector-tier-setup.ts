/**
 * The vector tier as the worker, the query functions and memory deletes hold it (none for `resident`):
 * the tier and its threshold. The S3 Vectors SDK client is loaded on the tier's first call, not at cold
 * start, so a stage without the tier (the default) never loads it, and one with it loads it only in a
 * container that touches a tiered memory.
 */
import type { VectorTierSettings } from '../../config';
import type { VectorTier, VectorTierSetup } from '../../core/vector-tier/ports';
import { once, type ProviderContext } from './once';

export function vectorTierSetupFromSettings(settings: VectorTierSettings, context: ProviderContext): VectorTierSetup | undefined {
  if (settings.store === 'resident') return undefined;
  const made = once(async () => {
    const { vectorTierFromSettings } = await import('./vector-tier-from-settings');
    const tier = vectorTierFromSettings(settings, context);
    if (!tier) throw new Error('the vector tier is on but no tier was made');
    return tier;
  });
  const tier: VectorTier = {
    ensureIndex: async (ref, dimension) => (await made()).ensureIndex(ref, dimension),
    put: async (ref, vectors) => (await made()).put(ref, vectors),
    delete: async (ref, keys) => (await made()).delete(ref, keys),
    query: async (ref, query) => (await made()).query(ref, query),
    dropIndex: async (ref) => (await made()).dropIndex(ref),
    generations: async (ref) => (await made()).generations(ref),
  };
  return { tier, thresholdChunks: settings.thresholdChunks };
}
