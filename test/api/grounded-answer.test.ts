/**
 * GET /memory/?assisted=true over HTTP with Amazon Bedrock configured as the answer model: a local
 * runtime of this file's own (the shared one has no model) whose retrieval function signs Converse
 * requests to a server on 127.0.0.1 speaking Bedrock's REST JSON protocol. The wire shape stays the
 * retrieval result's; a model failure is still a 200 with the extracts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../functions/local/runtime';
import type { Json } from '../support/api';
import { startJsonServer, type JsonServer, type Reply } from '../contract/graph-extraction/support/json-server';
import { converseAnswer, type ConverseBody, serverError } from '../contract/answers/support/replies';

const KEY = 'kmem_answer_test_key_0123456789ab';
const MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0';
const dataDir = mkdtempSync(join(tmpdir(), 'kmem-answers-'));
let reply: Reply = converseAnswer('unset');
let bedrock: JsonServer;
let runtime: Runtime;
let memoryId = '';

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

const ask = (extra: string) =>
  call('GET', `/memory/?memoryID=${memoryId}&query=${encodeURIComponent('Who designed the Analytical Engine?')}&topK=2${extra}`);

beforeAll(async () => {
  bedrock = await startJsonServer(() => reply);
  // the Converse client signs with the default credential chain; the fall-backs' warnings would only be noise here
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'AKIDTEST', AWS_SECRET_ACCESS_KEY: 'test-secret', POWERTOOLS_LOG_LEVEL: 'ERROR' });
  const { startRuntime } = await import('../../functions/local/runtime');
  runtime = await startRuntime({
    settings: {
      KMEM_DATA_DIR: dataDir,
      KMEM_PORT: '0',
      KMEM_API_KEY: KEY,
      KMEM_EMBEDDER: 'none',
      KMEM_GRAPH_WORD_VECTORS: 'false',
      KMEM_INGEST_WAIT_SECONDS: '1',
      KMEM_ANSWER_MODEL_PROVIDER: 'bedrock',
      KMEM_ANSWER_MODEL: MODEL,
      KMEM_ANSWER_MODEL_URL: bedrock.url,
    },
  });
  const files = [
    await textFile('babbage.txt', 'Charles Babbage designed the Analytical Engine in 1837. It was never completed.'),
    await textFile('lovelace.txt', 'Ada Lovelace wrote the first program for the Analytical Engine.'),
    await textFile('bread.txt', 'Knead the dough and let it rise for an hour.'),
  ];
  memoryId = (await call('POST', '/memories/create', { name: 'engines', memoryType: 'vector' })).body.data.id as string;
  await call('POST', '/memories/add-files', { memoryID: memoryId, files });
  await call('POST', '/memories/start-ingestion', { memoryID: memoryId });
  const deadline = Date.now() + 30_000;
  while ((await call('GET', `/memories/get/${memoryId}`)).body.data.step !== 'ready') {
    if (Date.now() > deadline) throw new Error('ingestion did not finish');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 120_000);

afterAll(async () => {
  await runtime?.stop();
  await bedrock?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('grounded answers over HTTP (Amazon Bedrock)', () => {
  it('answers first, cites the extracts that follow, and keeps the retrieval result shape', async () => {
    reply = converseAnswer('An answer citing nothing falls back to the extracts.');
    const offline = await ask('&assisted=true&facts=true');
    expect(offline.body.payload).toHaveLength(2);
    reply = converseAnswer('Charles Babbage designed it [1]; Ada Lovelace programmed it [2].');
    bedrock.requests.length = 0;
    const answered = await ask('&assisted=true&facts=true');

    expect(answered.status).toBe(200);
    expect(Object.keys(answered.body).sort()).toEqual(['facts', 'payload', 'sources', 'status']);
    const payload = answered.body.payload as Array<Record<string, unknown>>;
    expect(payload.every((item) => ['content,score', 'content,score,sourceID'].includes(Object.keys(item).sort().join()))).toBe(true);
    expect(payload[0]?.sourceID).toBeUndefined(); // the generated answer has no single source
    expect(payload[0]).toEqual({
      content: 'Charles Babbage designed it [1]; Ada Lovelace programmed it [2].',
      score: offline.body.payload[0].score,
    });
    expect(payload.slice(1)).toEqual(offline.body.payload);
    expect(answered.body.sources).toEqual(offline.body.sources);
    expect(answered.body.facts).toEqual(offline.body.facts);

    const [request] = bedrock.requests;
    expect(request).toMatchObject({ method: 'POST', path: `/model/${MODEL}/converse` });
    expect(String(request?.headers.authorization)).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDTEST\//);
    expect((request?.body as ConverseBody).messages[0]?.content[0]?.text).toContain(`[1] ${offline.body.payload[0].content}`);
  });

  it('answers 200 with the extracts when the model fails, and calls no model without assisted', async () => {
    reply = converseAnswer('An answer citing nothing falls back to the extracts.');
    const offline = await ask('&assisted=true');
    reply = serverError;
    bedrock.requests.length = 0;
    expect(await ask('&assisted=true')).toEqual(offline);
    expect(bedrock.requests.length).toBeGreaterThan(1); // retried
    bedrock.requests.length = 0;
    const raw = await ask('');
    expect(raw.status).toBe(200);
    expect(raw.body.payload[0].content).toMatch(/^Charles Babbage designed the Analytical Engine/);
    expect(bedrock.requests).toHaveLength(0);
  });
});
