/**
 * kmem's MCP server: one McpServer with the ten kmem tools, each calling the API through the typed
 * client with the caller's key, so every tool sees exactly what that key may see and answers errors in
 * the API's words. The stdio command and the POST /mcp route serve the same factory.
 */
import { McpServer } from '@modelcontextprotocol/server';
import type { KmemClient } from '../../packages/client/src';
import { API_VERSION } from '../http/api-version';
import { registerConversationTools } from './conversation-tools';
import { registerMemoryReadTools } from './memory-read-tools';
import { registerMemoryWriteTools } from './memory-write-tools';
import { registerPortabilityTools } from './portability-tools';

const INSTRUCTIONS =
  'kmem is a knowledge memory. search_memory finds passages with their sources; explore_entity walks the graph of a graph memory; ' +
  'remember_text and add_source add knowledge (searchable once ingestion_status says ready); search_messages and add_message work on conversations. ' +
  'list_memories gives the memory ids.';

export function createKmemMcpServer(kmem: KmemClient): McpServer {
  const server = new McpServer({ name: 'kmem', version: API_VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  registerMemoryReadTools(server, kmem);
  registerMemoryWriteTools(server, kmem);
  registerConversationTools(server, kmem);
  registerPortabilityTools(server, kmem);
  return server;
}
