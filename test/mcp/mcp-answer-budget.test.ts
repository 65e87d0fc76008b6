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
    const memory: Schemas['Memory'] = {
      id: 'm-huge',
      name: 'huge',
      description: heavyText('description', 5 * 1024 * 1024),
      memoryType: 'vector',
      step: 'ready',
      acceleration: false,
      chunkSize: null,
      chunkOverlap: null,
      factExtraction: false,
      fileCount: 1,
      chunkCount: 1,
      entityCount: 0,
      relationCount: 0,
      factCount: 0,
      failedFileCount: 0,
      failedFiles: [],
      indexVersion: 1,
      lastError: null,
      organizationID: 'org-1',
      webhookDelivery: null,
      createdAt: NOW,
      updatedAt: NOW,
    };
    answers.set('GET /memories/get/m-huge', () => ({ status: 'success', data: memory }));

    const { result, lambdaBytes, rpc } = await callTool(3, 'get_memory', { memoryID: 'm-huge' });
    expect(result.statusCode).toBe(200);
    expect(lambdaBytes).toBeLessThan(LAMBDA_RESULT_BYTES);
    expect(rpc).toMatchObject({ jsonrpc: '2.0', id: 3, error: { code: -32000, message: expect.stringMatching(/too large for one response/) } });
  }, 60_000);
});
