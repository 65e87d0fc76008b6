/**
 * Direct access to the test runtime's stores (dynalite and s3rver over HTTP, through the real SDK
 * clients), for tests that check what is stored or run the worker's handler themselves. Its queue is a
 * private directory, so nothing it sends reaches the runtime's own worker.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { createContainer } from '../../functions/adapters/container';
import { loadConfig } from '../../functions/config';

export function storeEnvironment(): Record<string, string> {
  const env = inject('kmem');
  return {
    KMEM_DYNAMODB_ENDPOINT: env.dynamodbEndpoint,
    KMEM_S3_ENDPOINT: env.s3Endpoint,
    KMEM_DATA_DIR: env.dataDir,
    KMEM_LOCAL_QUEUE_DIR: mkdtempSync(join(tmpdir(), 'kmem-test-queue-')),
    KMEM_ALLOW_PRIVATE_URLS: 'true',
    AWS_REGION: 'local',
  };
}

export function testContainer() {
  return createContainer(loadConfig({ ...process.env, ...storeEnvironment() }));
}

/** Every table item whose partition key starts with `A#<accountId>#` and mentions `text`. */
export async function itemsMentioning(deps: ReturnType<typeof testContainer>, accountId: string, text: string) {
  const { ScanCommand } = await import('@aws-sdk/lib-dynamodb');
  const out = await deps.documentClient.send(new ScanCommand({ TableName: deps.config.tableName }));
  return (out.Items ?? []).filter(
    (item) => String(item.pk).startsWith(`A#${accountId}#`) && JSON.stringify(item).includes(text),
  );
}
