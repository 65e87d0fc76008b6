/** MCP tools that move memories: export one into an archive (and read its state), restore one from an archive. */
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { KmemClient } from '../../packages/client/src';
import { answered, present } from './tool-results';

const CHANGES = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;

export function registerPortabilityTools(server: McpServer, kmem: KmemClient): void {
  server.registerTool(
    'export_memory',
    {
      title: 'Export a memory, or check an export',
      description:
        'With memoryID: starts writing the memory (settings, files with their text, sessions, messages, chunks, vectors, graph) into one archive and answers its exportID. ' +
        "With exportID: answers the export's state (running, completed, failed) and, once completed, a download address valid for an hour (docs/export-format.md).",
      inputSchema: z.object({
        memoryID: z.string().min(1).max(128).optional().describe('The memory to export (see list_memories)'),
        exportID: z.string().min(1).max(128).optional().describe('An export started before, to read its state and address'),
      }),
      annotations: CHANGES,
    },
    ({ memoryID, exportID }) => {
      if (exportID) {
        return present(kmem.getMemoryExport({ params: { path: { id: exportID } } }), ({ data }) =>
          answered(
            `Export ${data.exportID} of memory ${data.memoryID} is ${data.state}${data.url ? `: download it from ${data.url}` : ''}${data.error ? ` (${data.error})` : ''}`,
            data,
          ),
        );
      }
      if (!memoryID)
        return Promise.resolve({
          isError: true,
          content: [{ type: 'text' as const, text: 'give memoryID (to export) or exportID (to check an export)' }],
        });
      return present(kmem.exportMemory({ params: { path: { id: memoryID } } }), ({ data }) =>
        answered(
          `Export ${data.exportID} started; call export_memory with exportID ${data.exportID} for its state and download address.`,
          data,
        ),
      );
    },
  );

  server.registerTool(
    'restore_memory',
    {
      title: 'Restore a memory from an export archive',
      description:
        'Creates a new memory from an export archive already uploaded to kmem (its upload key, from POST /files/upload or /files/upload-url). ' +
        'Answers the new memoryID; check ingestion_status until it is ready. A restore charges no tokens.',
      inputSchema: z.object({
        archiveKey: z.string().min(1).max(1024).describe('The upload key of the archive'),
        name: z.string().min(1).max(200).optional().describe("The new memory's name (default: the exported memory's)"),
      }),
      annotations: CHANGES,
    },
    (body) =>
      present(kmem.restoreMemory({ body }), ({ data }) =>
        answered(`Restoring into memory ${data.memoryID}; it is searchable once ingestion_status says ready.`, data),
      ),
  );
}
