/**
 * GET /memory/?assisted=true over HTTP with Amazon Bedrock configured as the answer model: a local
 * runtime of this file's own (the shared one has no model) whose retrieval function signs Converse
 * requests to a server on 127.0.0.1 speaking Bedrock's REST JSON protocol. The wire shape stays the
 * retrieval result's; a model failure is still a 200 with the extracts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE_FILES, type OwnRuntime, startOwnRuntime } from '../support/own-runtime';
import { setProcessEnv } from '../support/process-env';
import { startJsonServer, type JsonServer, type Reply } from '../contract/graph-extraction/support/json-server';
import { converseAnswer, type ConverseBody, serverError } from '../contract/answers/support/replies';

const KEY = 'kmem_answer_test_key_0123456789ab';
const MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0';
let reply: Reply = converseAnswer('unset');
let bedrock: JsonServer;
let kmem: OwnRuntime;
let memoryId = '';
let restoreEnv: (() => void) | undefined;

const call = (method: string, path: string, body?: unknown) => kmem.call(method, path, body);
const ask = (extra: string) =>
  call('GET', `/memory/?memoryID=${memoryId}&query=${encodeURIComponent('Who designed the Analytical Engine?')}&topK=2${extra}`);

beforeAll(async () => {
  bedrock = await startJsonServer(() => reply);
  // the Converse client signs with the default credential chain; the fall-backs' warnings would only be noise here
  restoreEnv = setProcessEnv({ AWS_ACCESS_KEY_ID: 'AKIDTEST', AWS_SECRET_ACCESS_KEY: 'test-secret' });
  kmem = await startOwnRuntime(KEY, {
    KMEM_INGEST_WAIT_SECONDS: '1',
    KMEM_ANSWER_MODEL_PROVIDER: 'bedrock',
    KMEM_ANSWER_MODEL: MODEL,
    KMEM_ANSWER_MODEL_URL: bedrock.url,
  });
  memoryId = await kmem.readyVectorMemory('engines', ENGINE_FILES);
}, 120_000);

afterAll(async () => {
  await kmem?.stop();
  await bedrock?.close();
  restoreEnv?.();
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
