/** The OpenAI-compatible and Bedrock embedder adapters against HTTP servers on 127.0.0.1. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BedrockEmbedder } from '../../../functions/adapters/embeddings/bedrock-embedder';
import { EmbedderError } from '../../../functions/adapters/embeddings/embedding-answers';
import { OpenAiCompatibleEmbedder } from '../../../functions/adapters/embeddings/openai-embedder';

interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  server = undefined;
});

/** Starts a server answering with `answer(body)`; returns its base URL and the requests it saw. */
async function serve(answer: (request: Recorded, response: ServerResponse) => void): Promise<{ url: string; seen: Recorded[] }> {
  const seen: Recorded[] = [];
  server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      const text = Buffer.concat(parts).toString('utf8');
      const recorded = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: text ? (JSON.parse(text) as unknown) : null,
      };
      seen.push(recorded);
      answer(recorded, response);
    });
  });
  await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen };
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** A made-up embedding: [length of text, 1, 0] (so order is checkable), not normalised. */
function fakeEmbedding(text: string): number[] {
  return [text.length, 1, 0];
}

describe('OpenAiCompatibleEmbedder', () => {
  it('posts batches to {baseUrl}/embeddings with the key and returns unit vectors in input order', async () => {
    const { url, seen } = await serve((request, response) => {
      const input = (request.body as { input: string[] }).input;
      // Answer out of order, as the protocol allows; `index` says where each belongs.
      const data = input.map((text, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(text) })).reverse();
      json(response, 200, { object: 'list', data, model: 'm' });
    });
    const embedder = new OpenAiCompatibleEmbedder({
      baseUrl: `${url}/v1/`,
      model: 'test-model',
      dimensions: 3,
      apiKey: 'sk-test',
      batchSize: 2,
    });
    const vectors = await embedder.embed(['a', 'bbb', 'cc']);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/v1/embeddings', body: { model: 'test-model', input: ['a', 'bbb'] } });
    expect(seen[0]?.headers.authorization).toBe('Bearer sk-test');
    expect(seen[1]?.body).toEqual({ model: 'test-model', input: ['cc'] });
    expect(vectors.map((vector) => Array.from(vector, (value) => Number(value.toFixed(4))))).toEqual([
      [0.7071, 0.7071, 0],
      [0.9487, 0.3162, 0],
      [0.8944, 0.4472, 0],
    ]);
    expect(embedder.name).toBe('openai-compatible/test-model');
  });

  it('sends dimensions when asked and no auth header without a key', async () => {
    const { url, seen } = await serve((_request, response) => json(response, 200, { data: [{ index: 0, embedding: [1, 0] }] }));
    await new OpenAiCompatibleEmbedder({ baseUrl: url, model: 'm', dimensions: 2, requestDimensions: true }).embed(['x']);
    expect(seen[0]?.body).toEqual({ model: 'm', input: ['x'], dimensions: 2 });
    expect(seen[0]?.headers.authorization).toBeUndefined();
  });

  it('reports error statuses, wrong sizes and unreachable servers as EmbedderError', async () => {
    const { url } = await serve((request, response) => {
      const input = (request.body as { input: string[] }).input;
      if (input[0] === 'fail') json(response, 429, { error: { message: 'slow down' } });
      else json(response, 200, { data: [{ index: 0, embedding: [1, 2] }] });
    });
    const embedder = new OpenAiCompatibleEmbedder({ baseUrl: url, model: 'm', dimensions: 3 });
    await expect(embedder.embed(['fail'])).rejects.toThrow(/answered 429/);
    await expect(embedder.embed(['ok'])).rejects.toThrow(/2 dimensions, expected 3/);
    const closed = new OpenAiCompatibleEmbedder({ baseUrl: 'http://127.0.0.1:9', model: 'm', dimensions: 3 });
    await expect(closed.embed(['x'])).rejects.toBeInstanceOf(EmbedderError);
  });
});

describe('BedrockEmbedder', () => {
  const credentials = { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' };

  it('invokes Titan v2 once per text with dimensions and normalize, signed, and keeps order', async () => {
    const { url, seen } = await serve((request, response) => {
      const { inputText } = request.body as { inputText: string };
      json(response, 200, { embedding: [inputText.length, 0, 0, 1], inputTextTokenCount: 1 });
    });
    const embedder = new BedrockEmbedder({ region: 'us-east-1', endpoint: url, credentials, dimensions: 4, concurrency: 2 });
    const vectors = await embedder.embed(['one', 'three', 'x']);
    expect(seen).toHaveLength(3);
    expect(seen.every((request) => request.method === 'POST')).toBe(true);
    expect(seen.map((request) => decodeURIComponent(request.url))).toContain('/model/amazon.titan-embed-text-v2:0/invoke');
    expect(seen.map((request) => request.body)).toContainEqual({ inputText: 'three', dimensions: 4, normalize: true });
    expect(String(seen[0]?.headers.authorization)).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDTEST\//);
    expect(vectors.map((vector) => Number(vector[0]?.toFixed(4)))).toEqual([0.9487, 0.9806, 0.7071]);
    expect(embedder.name).toBe('bedrock/amazon.titan-embed-text-v2:0/4');
  });

  it('sends only inputText to Titan v1 and rejects malformed answers', async () => {
    const { url, seen } = await serve((request, response) => {
      const { inputText } = request.body as { inputText: string };
      if (inputText === 'bad') json(response, 200, { nothing: true });
      else json(response, 200, { embedding: [3, 4] });
    });
    const embedder = new BedrockEmbedder({
      region: 'us-east-1',
      endpoint: url,
      credentials,
      modelId: 'amazon.titan-embed-text-v1',
      dimensions: 2,
    });
    const [vector] = await embedder.embed(['hello']);
    expect(seen[0]?.body).toEqual({ inputText: 'hello' });
    expect(Array.from(vector ?? [])).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    await expect(embedder.embed(['bad'])).rejects.toBeInstanceOf(EmbedderError);
  });

  it('turns service errors into EmbedderError', async () => {
    const { url } = await serve((_request, response) => {
      response.writeHead(400, { 'content-type': 'application/json', 'x-amzn-errortype': 'ValidationException' });
      response.end(JSON.stringify({ message: 'bad input' }));
    });
    const embedder = new BedrockEmbedder({ region: 'us-east-1', endpoint: url, credentials, dimensions: 2 });
    await expect(embedder.embed(['x'])).rejects.toThrow(/InvokeModel failed/);
  });
});
