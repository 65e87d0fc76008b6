/** The memories group's export and restore routes (spec: /work/shared/spec/decisions.md; format: docs/export-format.md). */
import { z } from 'zod';
import { issuedIdParams, success, timestamp } from '../http/common-schemas';
import { route } from '../http/route-spec';

const exportSchema = z
  .object({
    exportID: z.string(),
    memoryID: z.string(),
    state: z.enum(['running', 'completed', 'failed']),
    url: z.string().nullable().meta({ description: 'A time-limited (1 hour) address of the archive once completed' }),
    size: z.number().int().nullable().meta({ description: 'Bytes of the archive once completed' }),
    error: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'MemoryExport' });

const restoreBody = z
  .object({
    archiveKey: z.string().min(1).max(1024).meta({
      description: 'A key from POST /files/upload or /files/upload-url holding an export archive (from any account or deployment)',
    }),
    name: z.string().min(1).max(200).optional().meta({ description: "The new memory's name (default: the exported memory's)" }),
  })
  .meta({ id: 'RestoreMemoryRequest' });

export const portabilityApi = {
  startExport: route({
    group: 'memories',
    method: 'POST',
    path: '/memories/export/{id}',
    operationId: 'exportMemory',
    summary: 'Start writing the memory (settings, files with their text, sessions, messages, chunks, vectors, graph) into one archive',
    params: issuedIdParams,
    response: success(z.object({ exportID: z.string() })),
    errors: [400, 401, 403, 404, 500],
  }),
  getExport: route({
    group: 'memories',
    method: 'GET',
    path: '/memories/export/{id}',
    operationId: 'getMemoryExport',
    summary: "An export's state and, once completed, a time-limited address of its archive",
    params: issuedIdParams,
    response: success(exportSchema),
    errors: [400, 401, 403, 404, 500],
  }),
  restore: route({
    group: 'memories',
    method: 'POST',
    path: '/memories/restore',
    operationId: 'restoreMemory',
    summary: "Create a new memory from an export archive; the memory's step shows progress to ready (a restore charges no tokens)",
    body: restoreBody,
    response: success(z.object({ memoryID: z.string() })),
    errors: [400, 401, 403, 500],
  }),
};
