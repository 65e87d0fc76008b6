/**
 * Deps over memory for the fast tier: every store and the queue in memory (functions/adapters/memory,
 * each held to its adapter's contract in test/contract/stores), composed as the local runtime composes
 * its own, with the worker's beside them. No store server, no global setup: a test of the use cases or
 * the worker pipeline runs in the test's own process.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Config, localConfig, type Settings } from '../../functions/config';
import { composeMemoryDeps, type MemoryDeps } from '../../functions/local/compose';
import { type ComposedWorkerDeps, composeWorkerDeps } from '../../functions/worker/deps';

/** Settings for deps over memory, with `settings` over the defaults (and the process's): a private data directory. */
export function memoryConfig(settings: Settings = {}): Config {
  return localConfig({
    KMEM_DATA_DIR: mkdtempSync(join(tmpdir(), 'kmem-memory-test-')),
    KMEM_ALLOW_PRIVATE_URLS: 'true',
    KMEM_RETIRE_AFTER_SECONDS: '0', // drained queues need not wait out the erasure delay
    AWS_REGION: 'local',
    ...settings,
  });
}

/** Deps over memory as the local runtime composes its own, plus the worker's, made once beside them. */
export type MemoryTestDeps = MemoryDeps & { worker: ComposedWorkerDeps };

export function memoryDeps(config: Config = memoryConfig()): MemoryTestDeps {
  const deps = composeMemoryDeps(config);
  return { ...deps, worker: composeWorkerDeps(deps) };
}
