/** `npm run kmem -- mcp`: the MCP tools over stdio, calling the kmem API at `url` with `apiKey`. */
import { serveStdio, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import { createKmemClient } from '../../packages/client/src';
import { createKmemMcpServer } from './kmem-mcp-server';

export function serveMcpOverStdio(url: string, apiKey: string): StdioServerHandle {
  const kmem = createKmemClient({ baseUrl: url, apiKey });
  return serveStdio(() => createKmemMcpServer(kmem), { onerror: (error) => console.error(`[kmem mcp] ${error.message}`) });
}
