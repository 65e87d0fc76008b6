/** The wire shape of work messages, checked before anything acts on one. */
import { z } from 'zod';
import type { WorkMessage } from '../core/work';

const id = z.string().min(1).max(200);

export const workMessageSchema: z.ZodType<WorkMessage> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('file.process'), accountId: id, fileId: id }),
  z.object({ kind: z.literal('memory.ingest'), accountId: id, memoryId: id, jobId: id }),
  z.object({ kind: z.literal('memory.reindex'), accountId: id, memoryId: id }),
  z.object({
    kind: z.literal('memory.refresh'),
    accountId: id,
    memoryId: id,
    fileIds: z.array(id).max(5_000).optional(),
    charge: z.record(id, z.number().int().min(0)).optional(),
  }),
  z.object({ kind: z.literal('file.import'), accountId: id, importId: id }),
  z.object({ kind: z.literal('file.resync'), accountId: id, fileId: id }),
  z.object({ kind: z.literal('web.resync-due') }),
  z.object({ kind: z.literal('memory.sync-session'), accountId: id, memoryId: id, sessionId: id }),
  z.object({ kind: z.literal('messages.sync'), accountId: id, sessionId: id }),
  z.object({ kind: z.literal('session.summarize'), accountId: id, sessionId: id }),
  z.object({ kind: z.literal('memory.merge'), accountId: id, memoryId: id }),
  z.object({ kind: z.literal('messages.merge'), accountId: id }),
  z.object({ kind: z.literal('memory.graph-items'), accountId: id, memoryId: id }),
  z.object({ kind: z.literal('webhook.deliver'), accountId: id, eventId: id }),
  z.object({ kind: z.literal('memory.export'), accountId: id, exportId: id }),
  z.object({
    kind: z.literal('index.retire'),
    accountId: id,
    memoryId: id.optional(),
    version: z.number().int().min(1),
    prefix: z.string().min(1).max(1024).optional(),
  }),
  z.object({ kind: z.literal('memory.restore'), accountId: id, memoryId: id, archiveKey: z.string().min(1).max(1_100) }),
]);
