/**
 * The vector tier on the local runtime, over HTTP: a runtime of this file's own with
 * `KMEM_VECTOR_STORE=s3vectors` and no endpoint starts the S3 Vectors double itself (docs/scale.md);
 * a memory past the (tiny) threshold gets its own index holding its chunks' vectors, `GET /memory/`
 * answers from it, removing files moves the memory back (index dropped), and deleting a memory deletes
 * its index (every generation of it). The index is inspected with the real SDK client at the runtime's double.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListIndexesCommand, ListVectorsCommand, S3VectorsClient } from '@aws-sdk/client-s3vectors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../functions/local/runtime';
import { authenticate } from '../../functions/core/use-cases/accounts';
import { vectorIndexName } from '../../functions/core/vector-tier/index-names';
import type { Json } from '../support/api';
import { setProcessEnv } from '../support/process-env';

const KEY = 'kmem_vector_tier_test_key_0123456789';
const BUCKET = 'kmem-local-vectors';
const dataDir = mkdtempSync(join(tmpdir(), 'kmem-vector-tier-'));
let runtime: Runtime;
let client: S3VectorsClient;
let accountId = '';
let restoreEnv: (() => void) | undefined;

const TEXTS: Record<string, string> = {
  'babbage.txt': 'Charles Babbage designed the Analytical Engine, a mechanical computer, in 1837.',
  'lovelace.txt': 'Ada Lovelace wrote the first program for the Analytical Engine.',
  'bread.txt': 'Knead the dough and let the bread rise for an hour before baking it.',
  'tides.txt': 'The tide rises and falls twice a day with the pull of the moon.',
};

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const headers: Record<string, string> = { 'X-API-Key': KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
  const response = await fetch(`${runtime.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: response.status, body: (await response.json()) as Json };
}

async function textFile(name: string, text: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([text], { type: 'text/plain' }), name);
  const uploaded = await fetch(`${runtime.url}/files/upload`, { method: 'POST', headers: { 'X-API-Key': KEY }, body: form });
  const { data } = (await uploaded.json()) as { data: { key: string } };
  return (await call('POST', '/files/create', { name, key: data.key, fileType: 'text' })).body.data.id as string;
}

async function until(memoryId: string, done: (memory: Json) => boolean): Promise<Json> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const memory = (await call('GET', `/memories/get/${memoryId}`)).body.data;
    if (done(memory)) return memory;
    if (Date.now() > deadline) throw new Error(`memory ${memoryId} did not get there: ${JSON.stringify(memory)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

async function ingested(files: readonly string[]): Promise<string> {
  const memoryId = (await call('POST', '/memories/create', { name: 'tiered', memoryType: 'vector' })).body.data.id as string;
  await call('POST', '/memories/add-files', { memoryID: memoryId, files });
  await call('POST', '/memories/start-ingestion', { memoryID: memoryId });
  await until(memoryId, (memory) => memory.step === 'ready' && memory.chunkCount === files.length);
  return memoryId;
}

/** The names of the memory's index generations in the store (docs/scale.md), listed by their common prefix. */
const indexesOf = async (memoryId: string): Promise<string[]> => {
  const prefix = vectorIndexName({ accountId, memoryId });
  const listed = await client.send(new ListIndexesCommand({ vectorBucketName: BUCKET, prefix }));
  return (listed.indexes ?? []).map((index) => index.indexName ?? '');
};
const keysIn = async (indexName: string): Promise<string[]> =>
  ((await client.send(new ListVectorsCommand({ vectorBucketName: BUCKET, indexName }))).vectors ?? []).map((vector) => vector.key ?? '');

beforeAll(async () => {
  restoreEnv = setProcessEnv({ POWERTOOLS_LOG_LEVEL: 'ERROR' });
  const { startRuntime } = await import('../../functions/local/runtime');
  runtime = await startRuntime({
    settings: {
      KMEM_DATA_DIR: dataDir,
      KMEM_PORT: '0',
      KMEM_API_KEY: KEY,
      KMEM_GRAPH_WORD_VECTORS: 'false',
      KMEM_INGEST_WAIT_SECONDS: '1',
      KMEM_VECTOR_STORE: 's3vectors',
      KMEM_VECTOR_BUCKET_NAME: BUCKET,
      KMEM_VECTOR_TIER_THRESHOLD_CHUNKS: '2',
    },
  });
  accountId = await authenticate(runtime.deps.apiKeys, KEY);
  const tier = runtime.config.vectorTier;
  if (tier.store !== 's3vectors' || !tier.endpoint) throw new Error('the runtime did not start the S3 Vectors double');
  client = new S3VectorsClient({ region: 'us-east-1', endpoint: tier.endpoint, credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
}, 120_000);

afterAll(async () => {
  client?.destroy();
  await runtime?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  restoreEnv?.();
});

describe('the vector tier on the local runtime', { timeout: 180_000 }, () => {
  it('starts the double on 127.0.0.1 and moves a memory past the threshold into its own index', async () => {
    expect(runtime.config.vectorTier).toMatchObject({ store: 's3vectors', endpoint: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+/) });
    const files = await Promise.all(['babbage.txt', 'lovelace.txt', 'bread.txt'].map((name) => textFile(name, TEXTS[name] ?? '')));
    const memoryId = await ingested(files);
    const [indexName, ...others] = await indexesOf(memoryId);
    expect(others).toEqual([]);
    expect(await keysIn(indexName ?? '')).toHaveLength(3);

    const answer = await call(
      'GET',
      `/memory/?memoryID=${memoryId}&query=${encodeURIComponent('Who designed the Analytical Engine?')}&topK=2`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.payload[0].content).toMatch(/^Charles Babbage designed/);
    expect(answer.body.sources.map((source: { name: string }) => source.name)).toContain('babbage.txt');

    // one file left: below 80% of the threshold, back in the segments; the index is dropped
    for (const fileId of files.slice(1)) {
      expect((await call('DELETE', `/memories/delete-file?memoryID=${memoryId}&fileID=${fileId}`)).status).toBe(200);
    }
    await until(memoryId, (memory) => memory.step === 'ready' && memory.chunkCount === 1);
    // dropped right after the publish that made the memory ready (whichever build of the two removals won)
    await expect.poll(() => indexesOf(memoryId), { timeout: 30_000 }).toEqual([]);
    const after = await call('GET', `/memory/?memoryID=${memoryId}&query=${encodeURIComponent('Analytical Engine')}`);
    expect(after.body.payload.map((item: { content: string }) => item.content)).toEqual([TEXTS['babbage.txt']]);
  });

  it('deletes the index with the memory', async () => {
    const files = await Promise.all(['tides.txt', 'bread.txt', 'lovelace.txt'].map((name) => textFile(`2-${name}`, TEXTS[name] ?? '')));
    const memoryId = await ingested(files);
    expect(await indexesOf(memoryId)).toHaveLength(1);
    expect((await call('DELETE', `/memories/delete/${memoryId}`)).status).toBe(200);
    expect(await indexesOf(memoryId)).toEqual([]);
  });
});
