/**
 * POST /mcp: each request is served by a fresh MCP server (stateless streamable HTTP, the SDK's
 * createMcpHandler) whose tools call this same API with the caller's key, at the address the request came
 * to. The key was checked before this runs, like on every route.
 */
import { createMcpHandler } from '@modelcontextprotocol/server';
import { createKmemClient } from '../../packages/client/src';
import { InternalError } from '../core/errors';
import { bind, type BoundRoute } from '../http/handler';
import { apiKeyOf } from '../http/request';
import { bodyWireBytes, RESPONSE_BUDGET_BYTES } from '../http/response-budget';
import { logger } from '../observability';
import { createKmemMcpServer } from './kmem-mcp-server';
import { mcpApi } from './schemas';

/** Request headers the MCP transport reads; the rest (host, lengths, hop-by-hop) stay behind. */
const FORWARDED = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'];

export const mcpRoutes = (): BoundRoute[] => [
  bind(mcpApi.serve, async ({ body, headers, origin }) => {
    if (!origin) throw new InternalError('POST /mcp: the address of this API is unknown (no domain name in the request context)');
    // a batch would multiply one answer's size past the budget; MCP since 2025-06-18 has none
    if (Array.isArray(body)) return rpcError(400, null, INVALID_REQUEST, 'a JSON-RPC batch is not accepted: send one message per request');
    logger.info('mcp request', describeMessage(body));
    const kmem = createKmemClient({ baseUrl: origin, apiKey: apiKeyOf(headers) ?? '' });
    const mcp = createMcpHandler(() => createKmemMcpServer(kmem), { responseMode: 'json' });
    try {
      const forwarded = Object.fromEntries(FORWARDED.flatMap((name) => (headers[name] ? [[name, headers[name]]] : [])));
      const request = new Request(`${origin}/mcp`, { method: 'POST', headers: forwarded, body: JSON.stringify(body) });
      const response = await mcp.fetch(request, { parsedBody: body });
      const text = await response.text();
      if (bodyWireBytes(text) > RESPONSE_BUDGET_BYTES) {
        logger.warn('mcp answer over the response budget', { ...describeMessage(body), bytes: bodyWireBytes(text) });
        return rpcError(
          200,
          idOf(body),
          ANSWER_TOO_LARGE,
          'the answer is too large for one response: ask for less (a smaller topK or limit)',
        );
      }
      return { statusCode: response.status, headers: { 'content-type': response.headers.get('content-type') ?? 'application/json' }, text };
    } finally {
      await mcp.close();
    }
  }),
];

/** JSON-RPC error codes: a message that is not a valid request; an answer past the response budget (server-defined). */
const INVALID_REQUEST = -32600;
const ANSWER_TOO_LARGE = -32000;

/** A JSON-RPC error answer, as JSON. */
function rpcError(statusCode: number, id: string | number | null, code: number, message: string) {
  const text = JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });
  return { statusCode, headers: { 'content-type': 'application/json' }, text };
}

/** The id of a JSON-RPC request, or null. */
function idOf(body: unknown): string | number | null {
  const id = typeof body === 'object' && body !== null ? (body as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** The JSON-RPC method (and tool) of a request, for the log. */
function describeMessage(body: unknown): { method?: string; tool?: string } {
  const message = (typeof body === 'object' && body !== null ? body : {}) as { method?: unknown; params?: { name?: unknown } };
  return {
    ...(typeof message.method === 'string' ? { method: message.method } : {}),
    ...(typeof message.params?.name === 'string' ? { tool: message.params.name } : {}),
  };
}
