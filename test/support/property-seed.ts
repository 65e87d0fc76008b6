/**
 * One seed for every fast-check property in the suite: test files take `fc` from here, never from
 * 'fast-check' itself (biome.jsonc's noRestrictedImports holds it), so the seed is set wherever a property
 * runs and the ~190 files that run none do not load fast-check at all (it was a setup file of every file).
 * Fixed by default, so CI and a rerun draw the same cases; FUZZ_SEED=random explores new ones, and
 * FUZZ_SEED=<n> replays a failure (fast-check prints the seed of a failing property).
 */
import fc from 'fast-check';

const DEFAULT_SEED = 20261122;

export const PROPERTY_SEED =
  process.env.FUZZ_SEED === 'random' ? Math.floor(Math.random() * 0x7fffffff) : Number(process.env.FUZZ_SEED ?? DEFAULT_SEED);

fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: PROPERTY_SEED });

export { fc };
