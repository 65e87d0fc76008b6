/**
 * Starts one local runtime for the test run (real dynalite and s3rver on loopback, in a temp data dir)
 * and two accounts, so tests can check tenant isolation. Tests reach it over HTTP only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { startRuntime } from '../../functions/local/runtime';
import { ensureConsoleBuilt } from '../../lib/console-build';
import { RUNTIME_AUTH_CACHE_SECONDS, RUNTIME_RETIRE_SECONDS } from './runtime-settings';
import { TEST_IMPORT_BUCKET, TEST_MISSING_BUCKET } from './imports';
import { bundleKmemCommand } from './kmem-cli-bundle';

export interface KmemTestEnv {
  url: string;
  keyA: string;
  keyB: string;
  /** An account of the console's browser tests alone, so its lists hold only what they made. */
  keyConsole: string;
  /**
   * An account of the conversation traffic test alone: its thousands of messages stay out of the account
   * other tests search, whose message index then stays small and quick to rebuild.
   */
  keyTraffic: string;
  /**
   * Two accounts of the OpenAPI fuzz alone: it replays ids it harvested from list answers in deletes, so
   * in a shared account it would delete what other files are still using.
   */
  keyFuzzA: string;
  keyFuzzB: string;
  dataDir: string;
  /** The runtime's store endpoints, for contract tests that build their own adapters. */
  dynamodbEndpoint: string;
  s3Endpoint: string;
  /** The operator command bundled for the run (test/support/kmem-cli-bundle.ts): `node <it> accounts ...`. */
  kmemCommand: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    kmem: KmemTestEnv;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  ensureConsoleBuilt(); // the console's browser tests and the stack's asset read console/dist
  const dataDir = mkdtempSync(join(tmpdir(), 'kmem-test-'));
  const kmemCommand = await bundleKmemCommand();
  const runtime = await startRuntime({
    settings: {
      KMEM_DATA_DIR: dataDir,
      KMEM_PORT: '0',
      KMEM_ALLOW_PRIVATE_URLS: 'true',
      KMEM_MAX_BODY_KB: '256',
      KMEM_WEBHOOK_BACKOFF_SECONDS: '1',
      KMEM_INGEST_WAIT_SECONDS: '1',
      KMEM_RETIRE_AFTER_SECONDS: String(RUNTIME_RETIRE_SECONDS), // the erasure bound, short for test/api/erasure*.test.ts
      KMEM_AUTH_CACHE_SECONDS: String(RUNTIME_AUTH_CACHE_SECONDS), // a revoked key's last seconds, short for erasure-accounts.test.ts
      KMEM_IMPORT_MAX_MEMBERS: '1000',
      // the buckets S3 imports of the tests read (none by default); each account reads only the pairs it is given
      KMEM_IMPORT_BUCKETS: `${TEST_IMPORT_BUCKET},${TEST_MISSING_BUCKET}`,
    },
  });
  // the worker thread loads its modules (seconds, 15 under load) before any file starts, not inside the
  // first file that ingests, whose timings it would stretch
  await runtime.workerStarted;
  const a = await createAccount(runtime.deps, 'tenant-a');
  const b = await createAccount(runtime.deps, 'tenant-b');
  const consoleAccount = await createAccount(runtime.deps, 'tenant-console');
  const trafficAccount = await createAccount(runtime.deps, 'tenant-traffic');
  const [fuzzA, fuzzB] = [await createAccount(runtime.deps, 'tenant-fuzz-a'), await createAccount(runtime.deps, 'tenant-fuzz-b')];
  project.provide('kmem', {
    url: runtime.url,
    keyA: a.apiKey,
    keyB: b.apiKey,
    keyConsole: consoleAccount.apiKey,
    keyTraffic: trafficAccount.apiKey,
    keyFuzzA: fuzzA.apiKey,
    keyFuzzB: fuzzB.apiKey,
    dataDir,
    dynamodbEndpoint: runtime.config.dynamodbEndpoint ?? '',
    s3Endpoint: runtime.config.s3Endpoint ?? '',
    kmemCommand,
  });
  return async () => {
    await runtime.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(dirname(kmemCommand), { recursive: true, force: true });
  };
}
