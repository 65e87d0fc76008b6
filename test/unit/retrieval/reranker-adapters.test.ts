/**
 * The reranker adapters against servers on 127.0.0.1 speaking each real protocol: a Cohere-style
 * `POST /rerank` endpoint, and Amazon Bedrock's Agent Runtime `Rerank` API (REST JSON, SigV4-signed).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BedrockReranker } from '../../../functions/adapters/reranking/bedrock-reranker';
import { OpenAiCompatibleReranker } from '../../../functions/adapters/reranking/openai-reranker';
import { rerankerFromSettings } from '../../../functions/adapters/providers/reranker-from-settings';
import { RerankerError } from '../../../functions/core/reranking/ports';
import { type JsonServer, type Reply, startJsonServer, TEST_CREDENTIALS } from '../../contract/graph-extraction/support/json-server';

let server: JsonServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(reply: (body: Record<string, unknown>, index: number) => Reply): Promise<JsonServer> {
  server = await startJsonServer((request, index) => reply(request.body as Record<string, unknown>, index));
  return server;
}

const TEXTS = ['Bread rises in an hour.', 'Babbage designed the Analytical Engine.', 'Lovelace wrote its first program.'];

describe('OpenAiCompatibleReranker', () => {
  const reranker = (url: string, timeoutMs = 2_000) =>
    new OpenAiCompatibleReranker({ baseUrl: `${url}/v1/`, model: 'rerank-v3.5', apiKey: 'co-key', candidates: 50, timeoutMs });

  it('posts {model, query, documents, top_n} to {baseUrl}/rerank with the key and answers relevance best first', async () => {
    const { url, requests } = await serve(() => ({
      body: {
        id: 'r-1',
        results: [
          { index: 2, relevance_score: 0.41 },
          { index: 1, relevance_score: 0.93 },
          { index: 0, relevance_score: 0.02 },
        ],
        meta: { billed_units: { search_units: 1 } },
      },
    }));
    const relevance = await reranker(url).rerank('Who designed the engine?', TEXTS);
    expect(relevance).toEqual([
      { index: 1, score: 0.93 },
      { index: 2, score: 0.41 },
      { index: 0, score: 0.02 },
    ]);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'POST', path: '/v1/rerank' });
    expect(requests[0]?.headers.authorization).toBe('Bearer co-key');
    expect(requests[0]?.body).toEqual({ model: 'rerank-v3.5', query: 'Who designed the engine?', documents: TEXTS, top_n: 3 });
    expect(reranker(url).name).toBe('openai-compatible/rerank-v3.5');
  });

  it('accepts an answer that leaves documents out, and calls nothing for no documents', async () => {
    const { url, requests } = await serve(() => ({ body: { results: [{ index: 1, relevance_score: 0.5 }] } }));
    expect(await reranker(url).rerank('q', TEXTS)).toEqual([{ index: 1, score: 0.5 }]);
    expect(await reranker(url).rerank('q', [])).toEqual([]);
    expect(requests).toHaveLength(1);
  });

  it('fails with a RerankerError on an error status, a malformed answer or a time-out', async () => {
    const answers: Reply[] = [
      { status: 503, body: { message: 'overloaded' } },
      { body: 'not json' },
      { body: { data: [] } },
      { body: { results: [{ index: 3, relevance_score: 0.1 }] } },
      {
        body: {
          results: [
            { index: 0, relevance_score: 0.1 },
            { index: 0, relevance_score: 0.2 },
          ],
        },
      },
      { body: { results: [{ index: 0, relevance_score: 'high' }] } },
      { body: { results: [{ index: 0 }, { index: 1 }, { index: 2 }, { index: 1 }] } },
    ];
    const { url } = await serve((_, index) => answers[index] ?? { body: {} });
    const messages: string[] = [];
    for (let i = 0; i < answers.length; i++) {
      const error = await reranker(url)
        .rerank('q', TEXTS)
        .catch((caught: unknown) => caught);
      expect(error, `answer ${i}`).toBeInstanceOf(RerankerError);
      messages.push((error as Error).message);
    }
    expect(messages[0]).toMatch(/answered 503: .*overloaded/);
    expect(messages[3]).toMatch(/index 3 \(documents 0-2, each once\)/);
    expect(messages[5]).toMatch(/without a numeric relevance score/);
    expect(messages[6]).toMatch(/4 results for 3 documents/);

    const silent = await startJsonServer(() => ({ body: {} }));
    await silent.close();
    await expect(reranker(silent.url).rerank('q', TEXTS)).rejects.toThrow(/rerank request to .* failed/);
  });

  it('gives up after timeoutMs', async () => {
    const { createServer } = await import('node:http');
    const hanging = createServer(() => undefined);
    await new Promise<void>((done) => hanging.listen(0, '127.0.0.1', done));
    const { port } = hanging.address() as { port: number };
    const started = Date.now();
    await expect(reranker(`http://127.0.0.1:${port}`, 150).rerank('q', TEXTS)).rejects.toBeInstanceOf(RerankerError);
    expect(Date.now() - started).toBeLessThan(2_000);
    hanging.closeAllConnections();
    await new Promise<void>((done) => hanging.close(() => done()));
  });
});

describe('BedrockReranker', () => {
  const reranker = (endpoint: string, model = 'cohere.rerank-v3-5:0') =>
    new BedrockReranker({ region: 'us-west-2', model, candidates: 50, timeoutMs: 2_000, endpoint, credentials: TEST_CREDENTIALS });

  it('calls Rerank with the inline text sources and the model ARN, signed, and answers relevance best first', async () => {
    const { url, requests } = await serve(() => ({
      body: {
        results: [
          { index: 0, relevanceScore: 0.001 },
          { index: 1, relevanceScore: 0.87 },
          { index: 2, relevanceScore: 0.33 },
        ],
      },
    }));
    expect(await reranker(url).rerank('Who designed the engine?', TEXTS)).toEqual([
      { index: 1, score: 0.87 },
      { index: 2, score: 0.33 },
      { index: 0, score: 0.001 },
    ]);
    const [request] = requests;
    expect(request).toMatchObject({ method: 'POST', path: '/rerank' });
    expect(String(request?.headers.authorization)).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/us-west-2\/bedrock\/aws4_request/,
    );
    expect(request?.body).toEqual({
      queries: [{ type: 'TEXT', textQuery: { text: 'Who designed the engine?' } }],
      sources: TEXTS.map((text) => ({ type: 'INLINE', inlineDocumentSource: { type: 'TEXT', textDocument: { text } } })),
      rerankingConfiguration: {
        type: 'BEDROCK_RERANKING_MODEL',
        bedrockRerankingConfiguration: {
          numberOfResults: 3,
          modelConfiguration: { modelArn: 'arn:aws:bedrock:us-west-2::foundation-model/cohere.rerank-v3-5:0' },
        },
      },
    });
    expect(reranker(url).name).toBe('bedrock/cohere.rerank-v3-5:0');
  });

  it('follows nextToken pages and takes a full model ARN as is', async () => {
    const arn = 'arn:aws:bedrock:eu-central-1::foundation-model/amazon.rerank-v1:0';
    const { url, requests } = await serve((_, index) =>
      index === 0
        ? { body: { results: [{ index: 2, relevanceScore: 0.9 }], nextToken: 'page-2' } }
        : {
            body: {
              results: [
                { index: 0, relevanceScore: 0.5 },
                { index: 1, relevanceScore: 0.1 },
              ],
            },
          },
    );
    expect((await reranker(url, arn).rerank('q', TEXTS)).map((r) => r.index)).toEqual([2, 0, 1]);
    expect(requests).toHaveLength(2);
    expect(requests[1]?.body).toMatchObject({ nextToken: 'page-2' });
    const modelArn = (body: unknown) =>
      (body as { rerankingConfiguration: { bedrockRerankingConfiguration: { modelConfiguration: { modelArn: string } } } })
        .rerankingConfiguration.bedrockRerankingConfiguration.modelConfiguration.modelArn;
    expect(modelArn(requests[0]?.body)).toBe(arn);
  });

  it('gives up after timeoutMs, retries included', async () => {
    const { createServer } = await import('node:http');
    const hanging = createServer(() => undefined);
    await new Promise<void>((done) => hanging.listen(0, '127.0.0.1', done));
    const { port } = hanging.address() as { port: number };
    const slow = new BedrockReranker({
      region: 'us-west-2',
      model: 'amazon.rerank-v1:0',
      candidates: 50,
      timeoutMs: 200,
      endpoint: `http://127.0.0.1:${port}`,
      credentials: TEST_CREDENTIALS,
    });
    const started = Date.now();
    await expect(slow.rerank('q', TEXTS)).rejects.toBeInstanceOf(RerankerError);
    expect(Date.now() - started).toBeLessThan(2_000);
    hanging.closeAllConnections();
    await new Promise<void>((done) => hanging.close(() => done()));
  });

  it('fails with a RerankerError on a service error or a malformed answer', async () => {
    const answers: Reply[] = [
      { status: 400, headers: { 'x-amzn-errortype': 'ValidationException' }, body: { message: 'model not enabled' } },
      { body: { results: [{ index: 5, relevanceScore: 0.2 }] } },
    ];
    const { url } = await serve((_, index) => answers[index] ?? { body: {} });
    await expect(reranker(url).rerank('q', TEXTS)).rejects.toThrow(/Bedrock Rerank cohere.rerank-v3-5:0 failed: model not enabled/);
    await expect(reranker(url).rerank('q', TEXTS)).rejects.toBeInstanceOf(RerankerError);
  });
});

describe('rerankerFromSettings', () => {
  it('maps each kind to its adapter, with its candidates', () => {
    const context = { region: 'eu-central-1' };
    expect(rerankerFromSettings({ kind: 'none' }, context)).toBeNull();
    const openai = rerankerFromSettings(
      { kind: 'openai', url: 'http://127.0.0.1:9/v1', model: 'rerank-v3.5', candidates: 20, timeoutMs: 1000 },
      context,
    );
    expect(openai).toBeInstanceOf(OpenAiCompatibleReranker);
    expect([openai?.name, openai?.candidates]).toEqual(['openai-compatible/rerank-v3.5', 20]);
    const bedrock = rerankerFromSettings({ kind: 'bedrock', model: 'amazon.rerank-v1:0', candidates: 40, timeoutMs: 1000 }, context);
    expect(bedrock).toBeInstanceOf(BedrockReranker);
    expect([bedrock?.name, bedrock?.candidates]).toEqual(['bedrock/amazon.rerank-v1:0', 40]);
  });
});
