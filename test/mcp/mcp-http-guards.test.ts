/**
 * POST /mcp as a Lambda answers it, with raw JSON-RPC: a search sends each passage once (its text in the
 * content, ids and scores in structuredContent) and fits Lambda's 6 MB (an answer past the budget is a
 * JSON-RPC error, a batch is refused), and add_source without a name gets one made of the address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { env, get, post, textFile, waitFor, type Json } from '../support/api';
import { testDeps } from '../support/stores';
import { page, send, startSite, type TestSite } from '../web/site-server';

/** What the API's own answers may carry as a Lambda result (functions/http/response-budget.ts). */
const BUDGET = 4 * 1024 * 1024;
/** Lambda's limit on a whole invocation result. */
const LAMBDA_RESULT_BYTES = 6 * 1024 * 1024;

const stores = testDeps();
let key: string;
let site: TestSite;

beforeAll(async () => {
  key = (await createAccount(stores, `mcp-guards-${process.pid}-${Date.now()}`)).apiKey;
  site = await startSite({
    '/docs/rowing/intro': (_req, res) =>
      send(res, 200, 'text/html', page('Rowing', '<main><p>The rowing club meets on Saturdays at the boathouse.</p></main>')),
  });
});
afterAll(async () => {
  await site?.close();
  stores.documentClient.destroy();
});

/** One raw JSON-RPC POST to /mcp: the status, the body text, and its size as a Lambda proxy result. */
async function rpc(message: unknown): Promise<{ status: number; text: string; lambdaBytes: number; body: Json }> {
  const response = await fetch(`${env().url}/mcp`, {
    method: 'POST',
    headers: {
      'X-API-Key': key,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify(message),
  });
  const text = await response.text();
  const lambdaBytes = Buffer.byteLength(JSON.stringify({ statusCode: response.status, headers: {}, body: text }));
  return { status: response.status, text, lambdaBytes, body: JSON.parse(messageOf(text)) as Json };
}

/** The JSON-RPC message of a JSON answer, or of the one event of an SSE answer (a 2025-era request gets one). */
function messageOf(text: string): string {
  if (!text.startsWith('event:') && !text.startsWith('data:')) return text;
  return text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim())
    .join('\n');
}

const toolCall = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

describe('POST /mcp answers', () => {
  it('sends each passage of a large search once and within the budget', async () => {
    // quotes and backslashes take 4 bytes each once a passage is JSON inside the Lambda result
    const heavy = Array.from({ length: 50_000 }, (_, i) => `zebra ${i} "said\\so" \\"quoted\\" `).join('');
    const memory = (await post('/memories/create', { name: 'heavy', memoryType: 'vector', chunkSize: 20_000 }, key)).body.data as Json;
    const file = await textFile('heavy.txt', heavy, key);
    expect((await post('/memories/add-files', { memoryID: memory.id, files: [file.id] }, key)).status).toBe(200);
    expect((await post('/memories/start-ingestion', { memoryID: memory.id }, key)).status).toBe(200);
    const ready = await waitFor(`/memories/get/${memory.id}`, (b) => b.data?.step === 'ready' || b.data?.step === 'failed', key, 90_000);
    expect(ready.data.step).toBe('ready');
    const api = await get(`/memory/?memoryID=${memory.id}&query=zebra&topK=100`, key);
    expect(api.status).toBe(200);
    const apiPassages = (api.body.payload as Json[]).length;
    expect(apiPassages).toBeGreaterThan(10);

    const answer = await rpc(toolCall(1, 'search_memory', { memoryID: memory.id, query: 'zebra', topK: 100 }));
    expect(answer.status).toBe(200);
    expect(answer.body.error, answer.text.slice(0, 300)).toBeUndefined();
    const result = answer.body.result as Json;
    expect(result.isError).toBeFalsy();
    expect(answer.lambdaBytes).toBeLessThan(BUDGET + 64 * 1024);
    expect(answer.lambdaBytes).toBeLessThan(LAMBDA_RESULT_BYTES);
    const passages = result.structuredContent.passages as Json[];
    expect(passages.length).toBeGreaterThan(5);
    expect(passages.length).toBeLessThanOrEqual(apiPassages);
    // the passages' text is in the content only; structuredContent names them by rank, score and source
    expect(passages[0]).toMatchObject({ rank: 1, score: expect.any(Number), source: { id: file.id, name: 'heavy.txt' } });
    expect(passages[0]).not.toHaveProperty('content');
    const text = (result.content as Json[]).map((part) => part.text).join('\n');
    // a piece from the middle of the best passage (its ends overlap its neighbours) is in the answer once
    const best = (api.body.payload as Json[])[0]?.content as string;
    const piece = best.slice(best.length / 2, best.length / 2 + 200);
    expect(text).toContain(piece);
    expect(answer.text.split(JSON.stringify(piece).slice(1, -1)).length - 1).toBe(1);
  }, 180_000);

  it('refuses a JSON-RPC batch with a JSON-RPC error', async () => {
    const batch = [toolCall(1, 'list_memories', {}), toolCall(2, 'list_memories', {})];
    const answer = await rpc(batch);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/batch/) } });
  });

  it('adds a web source without a name, named after its host and path', async () => {
    const memory = (await post('/memories/create', { name: 'sources', memoryType: 'vector' }, key)).body.data as Json;
    const answer = await rpc(toolCall(3, 'add_source', { memoryID: memory.id, url: `${site.origin}/docs/rowing/intro` }));
    const result = answer.body.result as Json;
    const text = (result.content as Json[]).map((part) => part.text).join('\n');
    expect(result.isError, text).toBeFalsy();
    const file = (await get(`/files/get/${result.structuredContent.fileID}`, key)).body.data as Json;
    expect(file.name).toBe(`127.0.0.1:${site.port}_docs_rowing_intro`);
  });
});
