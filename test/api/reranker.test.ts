/**
 * GET /memory/ over HTTP with a reranker configured: a local runtime of this file's own (the shared one
 * has none) whose retrieval function posts the fused candidates to a Cohere-style `/rerank` server on
 * 127.0.0.1. The reranker's order is answered with `reranked: true`; a reranker that fails leaves the
 * fused order, `reranked: false` and a warning in the log, never an error answer.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { logger } from '../../functions/observability';
import { ENGINE_FILES, type OwnRuntime, startOwnRuntime } from '../support/own-runtime';
import { type JsonServer, type Reply, startJsonServer } from '../contract/graph-extraction/support/json-server';

const KEY = 'kmem_rerank_test_key_0123456789abc';
let reply: (documents: string[]) => Reply = () => ({ status: 500, body: {} });
let reranker: JsonServer;
let kmem: OwnRuntime;
let memoryId = '';

const call = (method: string, path: string, body?: unknown) => kmem.call(method, path, body);
const ask = (query: string, topK = 2) => call('GET', `/memory/?memoryID=${memoryId}&query=${encodeURIComponent(query)}&topK=${topK}`);

/** Cohere's answer shape: every document scored, higher for those holding `word`. */
const preferring =
  (word: string) =>
  (documents: string[]): Reply => ({
    body: {
      id: 'rerank-1',
      results: documents
        .map((text, index) => ({ index, relevance_score: text.includes(word) ? 0.9 : 0.1 / (index + 1) }))
        .sort((a, b) => b.relevance_score - a.relevance_score),
      meta: { billed_units: { search_units: 1 } },
    },
  });

beforeAll(async () => {
  reranker = await startJsonServer((request) => reply((request.body as { documents: string[] }).documents));
  kmem = await startOwnRuntime(KEY, {
    KMEM_INGEST_WAIT_SECONDS: '1',
    KMEM_RERANKER: 'openai',
    KMEM_RERANKER_MODEL: 'rerank-v3.5',
    KMEM_RERANKER_URL: `${reranker.url}/v1`,
    KMEM_RERANKER_API_KEY: 'co-test-key',
  });
  memoryId = await kmem.readyVectorMemory('engines', ENGINE_FILES);
}, 120_000);

afterAll(async () => {
  await kmem?.stop();
  await reranker?.close();
});

describe('GET /memory/ with a reranker (Cohere-style /rerank)', () => {
  it("answers the reranker's order, says so, and sends it the fused candidates best first", async () => {
    reply = preferring('Lovelace');
    reranker.requests.length = 0;
    const answer = await ask('Who designed the Analytical Engine?');

    expect(answer.status).toBe(200);
    expect(answer.body.reranked).toBe(true);
    expect(Object.keys(answer.body).sort()).toEqual(['facts', 'payload', 'reranked', 'sources', 'status']);
    const [request] = reranker.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/rerank' });
    expect(request?.headers.authorization).toBe('Bearer co-test-key');
    const sent = request?.body as { model: string; query: string; documents: string[]; top_n: number };
    expect(sent.model).toBe('rerank-v3.5');
    expect(sent.query).toBe('Who designed the Analytical Engine?');
    expect(sent.top_n).toBe(sent.documents.length);
    // the fused order puts Babbage (who "designed" it) first; the reranker lifts Lovelace above him
    expect(sent.documents[0]).toMatch(/^Charles Babbage designed/);
    expect(answer.body.payload[0].content).toMatch(/^Ada Lovelace/);
    expect(answer.body.payload[0].score).toBe(0.9);
    expect(answer.body.payload[1].content).toMatch(/^Charles Babbage/);
    expect(answer.body.sources[0].name).toBe('lovelace.txt');
  });

  it('answers the fused order with reranked: false and a warning when the reranker fails', async () => {
    reply = () => ({ status: 503, body: { message: 'overloaded' } });
    reranker.requests.length = 0;
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    try {
      const answer = await ask('Who designed the Analytical Engine?');
      expect(answer.status).toBe(200);
      expect(answer.body.reranked).toBe(false);
      const sent = (reranker.requests[0]?.body as { documents: string[] }).documents;
      expect(answer.body.payload.map((item: { content: string }) => item.content)).toEqual(sent.slice(0, 2));
      expect(answer.body.payload[0].content).toMatch(/^Charles Babbage designed/);
      expect(warn).toHaveBeenCalledWith(
        'reranker failed: the fused order was answered',
        expect.objectContaining({ reranker: 'openai-compatible/rerank-v3.5', reason: expect.stringMatching(/answered 503/) }),
      );
    } finally {
      warn.mockRestore();
    }
  });

  it('says reranked: false when nothing matched and no reranker was called', async () => {
    reply = preferring('Lovelace');
    reranker.requests.length = 0;
    const empty = (await call('POST', '/memories/create', { name: 'empty', memoryType: 'vector' })).body.data.id as string;
    const answer = await call('GET', `/memory/?memoryID=${empty}&query=engine`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ payload: [], reranked: false });
    expect(reranker.requests).toHaveLength(0);
  });
});
