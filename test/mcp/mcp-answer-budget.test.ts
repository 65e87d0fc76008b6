/**
 * POST /mcp's own answer budget, reached through the MCP function's real handler, called as the local
 * runtime calls it (an API Gateway event, a Lambda context) and authenticated against the test stores.
 * The route's tools call the kmem API at the request's origin; here that origin is an HTTP double of
 * kmem's API on 127.0.0.1 answering the endpoints the tools use in their real wire shapes, as large as
 * the real routes let them be (functions/http/response-budget.ts) or, for the route's backstop, larger.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { fittingHead, LIST_CONTENT_CHARS, RESPONSE_BUDGET_BYTES, wireBytes } from '../../functions/http/response-budget';
import { lambdaContext } from '../../functions/local/lambda-context';
import { createMcpHandler } from '../../functions/mcp/handler';
import type { Schemas } from '../../packages/client/src';
import { testDeps } from '../support/stores';

/** Lambda's limit on a whole invocation result. */
const LAMBDA_RESULT_BYTES = 6 * 1024 * 1024;
const NOW = '2026-11-27T12:00:00.000Z';

/**
 * Text of `chars` characters tagged at its start, made of `filler`: by default a quarter of it quotes and
 * backslashes, which take 4 bytes each in a Lambda result.
 */
const heavyText = (tag: string, chars: number, filler = 'said "so" \\ '): string =>
  `<${tag}> ${filler.repeat(Math.ceil(chars / filler.length))}`.slice(0, chars);

/** What the double answers, by method and path, and the API keys it was called with. */
type Answer = (url: URL) => unknown;
const answers = new Map<string, Answer>();
const keysSeen: string[] = [];

function serveDouble(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://double');
  keysSeen.push(String(req.headers['x-api-key'] ?? req.headers.authorization ?? ''));
  const route = [...answers.entries()].find(([pattern]) => new RegExp(`^${pattern}$`).test(`${req.method} ${url.pathname}`));
  const [status, body] = route ? [200, route[1](url)] : [404, { status: 'not_found', error: `no such route: ${url.pathname}` }];
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

const stores = testDeps();
const handler = createMcpHandler(() => stores);
let key: string;
let double: Server;
let doubleHost: string;

beforeAll(async () => {
  key = (await createAccount(stores, `mcp-budget-${process.pid}-${Date.now()}`)).apiKey;
  double = createServer(serveDouble);
  await new Promise<void>((resolve) => double.listen(0, '127.0.0.1', resolve));
  doubleHost = `127.0.0.1:${(double.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => double?.close(resolve));
  stores.documentClient.destroy();
});

/** One tools/call through the MCP function's handler, as the local runtime would reach it at the double's address. */
async function callTool(id: number, name: string, args: Record<string, unknown>) {
  const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
  const headers = {
    'x-api-key': key,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-06-18',
  };
  const requestContext = { domainName: doubleHost, stage: 'local', requestId: `budget-${id}`, httpMethod: 'POST', path: '/mcp' };
  const event = {
    resource: '/mcp',
    path: '/mcp',
    httpMethod: 'POST',
    headers,
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body,
    isBase64Encoded: false,
    requestContext,
  } as unknown as APIGatewayProxyEvent;
  const result: APIGatewayProxyResult = await handler(event, lambdaContext('mcp', `budget-${id}`));
  // a JSON answer, or one SSE event holding it
  const message = result.body.startsWith('event:') ? result.body.replace(/^[\s\S]*?data: ?/, '') : result.body;
  return { result, lambdaBytes: Buffer.byteLength(JSON.stringify(result)), rpc: JSON.parse(message) };
}

/** A memory as GET /memories/get/{id} answers it. */
const memoryOf = (id: string, description: string): Schemas['Memory'] => ({
  id,
  name: `memory ${id}`,
  description,
  memoryType: 'graph',
  step: 'ready',
  acceleration: false,
  chunkSize: null,
  chunkOverlap: null,
  factExtraction: true,
  fileCount: 2,
  chunkCount: 7,
  entityCount: 5,
  relationCount: 4,
  factCount: 3,
  failedFileCount: 1,
  failedFiles: [{ fileID: 'file-9', error: 'extraction failed: the file is empty' }],
  indexVersion: 1,
  lastError: null,
  organizationID: 'org-1',
  webhookDelivery: null,
  createdAt: NOW,
  updatedAt: NOW,
});

const textOf = (rpc: { result: { content: Array<{ text: string }> } }) => rpc.result.content.map((part) => part.text).join('\n');
const occurrences = (text: string, piece: string) => text.split(piece).length - 1;

describe('POST /mcp holds its answers to the response budget', () => {
  it('trims a search the API answered at its budget, saying how many passages were left out', async () => {
    const source: Schemas['Source'] = { id: 'file-1', name: 'heavy.txt', score: 1, url: `https://example.com/${'long/'.repeat(300)}` };
    // 200 passages of 40,000 characters; the retrieval route answers the head that fits its budget
    const all: Schemas['Passage'][] = Array.from({ length: 200 }, (_, i) => ({
      content: heavyText(`passage-${i}`, 40_000),
      score: 1 - i / 1000,
      sourceID: source.id,
    }));
    const payload = fittingHead(all, wireBytes);
    answers.set('GET /memory/?', (): Schemas['SearchResult'] => ({ status: 'success', payload, facts: [], sources: [source] }));

    const { result, lambdaBytes, rpc } = await callTool(1, 'search_memory', { memoryID: 'm-1', query: 'zebra', topK: 100 });
    expect(keysSeen).toContain(key);
    expect(result.statusCode).toBe(200);
    expect(rpc.error, result.body.slice(0, 300)).toBeUndefined();
    expect(rpc.result.isError).toBeFalsy();
    expect(lambdaBytes).toBeLessThanOrEqual(RESPONSE_BUDGET_BYTES);
    const passages = rpc.result.structuredContent.passages as Array<Record<string, unknown>>;
    const left = payload.length - passages.length;
    expect(passages.length).toBeGreaterThan(10);
    expect(left).toBeGreaterThan(0);
    const text = textOf(rpc);
    expect(text.slice(-200)).toContain(`(${left} more passage(s) did not fit in one answer: ask for a smaller topK.)`);
    expect(passages.at(-1)).toMatchObject({ rank: passages.length, source: { id: source.id } });
    expect(passages[0]).not.toHaveProperty('content');
    // each kept passage once, none of the left-out ones
    expect(occurrences(result.body, `<passage-0>`)).toBe(1);
    expect(occurrences(result.body, `<passage-${passages.length - 1}>`)).toBe(1);
    expect(occurrences(result.body, `<passage-${passages.length}>`)).toBe(0);
  }, 60_000);

  it('answers topK 100 of the largest messages the API lists within the budget, each once', async () => {
    // the messages route cuts each hit to LIST_CONTENT_CHARS and answers the head that fits its budget
    const hits: Schemas['MessageHit'][] = Array.from({ length: 100 }, (_, i) => ({
      id: `msg-${i}`,
      sessionID: 'support-7781',
      customerUserID: 'customer-1',
      userID: 'user-1',
      role: i % 2 ? 'assistant' : 'user',
      content: heavyText(`message-${i}`, LIST_CONTENT_CHARS, '"\\\\'),
      contentTruncated: true,
      score: 1 - i / 1000,
      createdAt: NOW,
      updatedAt: NOW,
    }));
    const messages = fittingHead(hits, wireBytes);
    expect(messages).toHaveLength(100);
    answers.set('GET /messages/search', () => ({ status: 'success', messages, count: messages.length }));

    const { result, lambdaBytes, rpc } = await callTool(2, 'search_messages', { query: 'cracked screen', topK: 100 });
    expect(result.statusCode).toBe(200);
    expect(rpc.error, result.body.slice(0, 300)).toBeUndefined();
    expect(lambdaBytes).toBeLessThanOrEqual(RESPONSE_BUDGET_BYTES);
    const found = rpc.result.structuredContent.messages as Array<Record<string, unknown>>;
    expect(found).toHaveLength(100);
    expect(found[99]).toMatchObject({ id: 'msg-99', sessionID: 'support-7781', role: 'assistant', contentTruncated: true });
    expect(found[0]).not.toHaveProperty('content');
    const text = textOf(rpc);
    const head = '[1] 2026-11-27T12:00:00.000Z session support-7781 user: <message-0> "\\\\"\\\\"';
    expect(text.slice(0, head.length)).toBe(head);
    expect(text.includes('[cut; GET /messages/get/msg-0 has it whole] (score 1.000)\n[2] ')).toBe(true);
    expect(occurrences(result.body, '<message-0>')).toBe(1);
    expect(occurrences(result.body, '<message-99>')).toBe(1);
  }, 60_000);

  it('refuses an answer that cannot be trimmed with a JSON-RPC error, well under Lambda’s limit', async () => {
    const memory = memoryOf('m-huge', heavyText('description', 5 * 1024 * 1024));
    answers.set('GET /memories/get/m-huge', () => ({ status: 'success', data: memory }));

    const { result, lambdaBytes, rpc } = await callTool(3, 'get_memory', { memoryID: 'm-huge' });
    expect(result.statusCode).toBe(200);
    expect(lambdaBytes).toBeLessThan(LAMBDA_RESULT_BYTES);
    expect(rpc).toMatchObject({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32000, message: expect.stringMatching(/too large for one response/) },
    });
  }, 60_000);

  it('keeps the head of the entities that fits, saying how many were left out, each passage once', async () => {
    // the entities route answers up to 20 entities of 3 passages each, a graph chunk per passage
    const entities: Schemas['Entity'][] = Array.from({ length: 20 }, (_, i) => ({
      id: `entity-${i}`,
      name: `Rowing club ${i}`,
      type: 'organization',
      aliases: [`club ${i}`],
      relations: [
        {
          direction: 'outgoing',
          relation: 'meets at',
          target: { id: 'entity-boathouse', name: 'boathouse' },
          validFrom: null,
          validTo: null,
        },
      ],
      facts: [
        {
          content: `Rowing club ${i} meets at the boathouse.`,
          validFrom: '2024-01-01T00:00:00.000Z',
          validTo: null,
          sourceID: `file-${i}`,
        },
      ],
      passages: [0, 1, 2].map((p) => ({ fileID: `file-${i}`, content: heavyText(`entity-${i}-passage-${p}`, 40_000, '"\\\\') })),
    }));
    answers.set('GET /memories/entities/m-graph', () => ({ status: 'success', entities, count: entities.length }));

    const { result, lambdaBytes, rpc } = await callTool(4, 'explore_entity', { memoryID: 'm-graph', name: 'rowing club', limit: 20 });
    expect(result.statusCode).toBe(200);
    expect(rpc.error, result.body.slice(0, 300)).toBeUndefined();
    expect(lambdaBytes).toBeLessThanOrEqual(RESPONSE_BUDGET_BYTES);
    const kept = rpc.result.structuredContent.entities as Array<Record<string, unknown>>;
    expect(kept.length).toBeGreaterThan(1);
    expect(kept.length).toBeLessThan(20);
    expect(kept[0]).toEqual({
      id: 'entity-0',
      name: 'Rowing club 0',
      type: 'organization',
      aliases: ['club 0'],
      relations: entities[0]?.relations,
      factCount: 1,
      passages: [{ fileID: 'file-0' }, { fileID: 'file-0' }, { fileID: 'file-0' }],
    });
    const text = textOf(rpc);
    expect(text.slice(-200)).toContain(`(${20 - kept.length} more entity(s) did not fit in one answer: ask for a smaller limit.)`);
    expect(occurrences(result.body, '<entity-0-passage-2>')).toBe(1);
    expect(occurrences(result.body, `<entity-${kept.length}-passage-0>`)).toBe(0);
  }, 60_000);

  it('sends a memory’s description once, in the text, with its counts and failures', async () => {
    const description = 'Essays on rowing clubs and the boathouses they meet at, 1890 to 1930.';
    answers.set('GET /memories/get/m-essays', () => ({ status: 'success', data: memoryOf('m-essays', description) }));
    const summary: Schemas['MemorySummary'] = {
      id: 'm-essays',
      name: 'memory m-essays',
      description,
      memoryType: 'graph',
      step: 'ready',
      acceleration: false,
      chunkSize: null,
      chunkOverlap: null,
      factExtraction: true,
      userID: 'user-1',
      createdAt: NOW,
      updatedAt: NOW,
    };
    answers.set('GET /memories/list', () => ({ status: 'success', memories: [summary], count: 1, nextToken: 'page-2' }));

    const got = await callTool(5, 'get_memory', { memoryID: 'm-essays' });
    expect(occurrences(got.result.body, description)).toBe(1);
    expect(textOf(got.rpc)).toBe(
      `Memory m-essays: memory m-essays (graph, ready)\n${description}\n` +
        '2 file(s), 7 chunk(s), 5 entities, 4 relations, 3 facts\n1 failed file(s)\n- file file-9: extraction failed: the file is empty',
    );
    expect(got.rpc.result.structuredContent.memory).toMatchObject({ id: 'm-essays', step: 'ready', fileCount: 2, failedFileCount: 1 });
    expect(got.rpc.result.structuredContent.memory).not.toHaveProperty('description');

    const listed = await callTool(6, 'list_memories', {});
    expect(occurrences(listed.result.body, description)).toBe(1);
    expect(textOf(listed.rpc)).toBe(`m-essays: memory m-essays (graph, ready) ${description}\nMore: call again with nextToken page-2`);
    expect(listed.rpc.result.structuredContent).toMatchObject({ memories: [{ id: 'm-essays', memoryType: 'graph' }], nextToken: 'page-2' });
    expect(listed.rpc.result.structuredContent.memories[0]).not.toHaveProperty('description');
  });
});
