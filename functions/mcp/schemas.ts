/** The MCP route's contract: `POST /mcp` takes JSON-RPC messages (MCP streamable HTTP) and is described by MCP itself. */
import { z } from 'zod';
import { route } from '../http/route-spec';

export const mcpApi = {
  serve: route({
    group: 'mcp',
    method: 'POST',
    path: '/mcp',
    operationId: 'serveMcp',
    summary: "kmem's MCP server over streamable HTTP (stateless; JSON-RPC in, JSON or one SSE answer out)",
    published: false,
    body: z.unknown(),
    response: z.unknown(),
    errors: [400, 401, 403, 500],
  }),
};
