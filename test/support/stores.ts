/**
 * Direct access to the test runtime's stores (dynalite and s3rver over HTTP, through the real SDK
 * clients), for tests that check what is stored or run the worker's handler themselves: deps built from
 * a config object, never from the process environment. Each has a private queue directory, so nothing
 * it sends reaches the runtime's own worker.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { type Config, localConfig, type Settings } from '../../functions/config';
import { composeLocalDeps, type LocalDeps } from '../../functions/local/compose';
import { type ComposedWorkerDeps, composeWorkerDeps } from '../../functions/worker/deps';

/** The settings that point at the test runtime's stores, with a fresh private queue directory. */
export function storeEnvironment(): Settings {
  const env = inject('kmem');
  return {
    KMEM_DYNAMODB_ENDPOINT: env.dynamodbEndpoint,
    KMEM_S3_ENDPOINT: env.s3Endpoint,
    KMEM_DATA_DIR: env.dataDir,
    KMEM_LOCAL_QUEUE_DIR: mkdtempSync(join(tmpdir(), 'kmem-test-queue-')),
    KMEM_ALLOW_PRIVATE_URLS: 'true',
    KMEM_RETIRE_AFTER_SECONDS: '0', // drained queues need not wait out the erasure delay
    AWS_REGION: 'local',
  };
}

/** A configuration over the test runtime's stores, with `settings` over the defaults (and the process's). */
export function testConfig(settings: Settings = {}): Config {
  return localConfig({ ...storeEnvironment(), ...settings });
}

/** Deps as the local runtime composes them, plus the worker's, made once beside them. */
export type TestDeps = LocalDeps & { worker: ComposedWorkerDeps };

export function testDeps(config: Config = testConfig()): TestDeps {
  const deps = composeLocalDeps(config);
  return { ...deps, worker: composeWorkerDeps(deps) };
}

/** Every table item whose partition key starts with `A#<accountId>#` and mentions `text`. */
export async function itemsMentioning(deps: TestDeps, accountId: string, text: string) {
  const { ScanCommand } = await import('@aws-sdk/lib-dynamodb');
  const out = await deps.documentClient.send(new ScanCommand({ TableName: deps.config.tableName }));
  return (out.Items ?? []).filter((item) => String(item.pk).startsWith(`A#${accountId}#`) && JSON.stringify(item).includes(text));
}
