/**
 * Settings of the test runtime (test/support/global-setup.ts) that tests wait on, shortened from their
 * defaults so waits are short.
 */

/**
 * KMEM_RETIRE_AFTER_SECONDS: the erasure bound's delay (60 s by default). Readers of a version retired while
 * they load it read the newer one (functions/core/use-cases/current-version.ts), so a short delay is safe.
 */
export const RUNTIME_RETIRE_SECONDS = 3;

/** KMEM_AUTH_CACHE_SECONDS: how long a warm cache still lets a revoked key in (5 s by default). */
export const RUNTIME_AUTH_CACHE_SECONDS = 2;
