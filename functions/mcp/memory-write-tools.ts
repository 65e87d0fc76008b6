/** MCP tools that change memories: remember text, add a web source, forget a file. */
import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { KmemClient } from '../../packages/client/src';
import { answered, refused } from './tool-results';

const memoryID = z.string().min(1).max(128).describe('The memory id (see list_memories)');
const WAIT_POLL_MS = 250;
/** Longest a tool waits for ingestion: the MCP function has 28 s (API Gateway allows 29) for the whole call. */
const MAX_WAIT_SECONDS = 20;

const SOURCE_KINDS = { page: 'website', sitemap: 'sitemap', crawl: 'website_bulk' } as const;

export function registerMemoryWriteTools(server: McpServer, kmem: KmemClient): void {
  server.registerTool(
    'remember_text',
    {
      title: 'Remember text',
      description:
        'Stores a piece of text (a note, a summary, a document) in a memory: kmem keeps it as a text file, adds it to the memory and starts ingestion. ' +
        `It is searchable once ingestion is ready: pass waitSeconds (up to ${MAX_WAIT_SECONDS}) to wait for that, or check ingestion_status.`,
      inputSchema: z.object({
        memoryID,
        text: z.string().min(1).max(1_000_000).describe('The text to remember'),
        title: z.string().min(1).max(200).optional().describe('A name for it (default: note-<time>.txt)'),
        waitSeconds: z
          .number()
          .int()
          .min(0)
          .max(MAX_WAIT_SECONDS)
          .optional()
          .describe('Wait up to this long for it to become searchable (default 0)'),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async ({ memoryID: id, text, title, waitSeconds }) => {
      const name = title ?? `note-${new Date().toISOString().replace(/[:.]/g, '-')}.txt`;
      const file = await kmem.addFile(text, { name, fileType: 'text', contentType: 'text/plain' });
      if (!file.ok) return refused(file.error);
      return ingestInto(kmem, id, file.data.id, `Remembered '${name}' as file ${file.data.id}`, waitSeconds ?? 0);
    },
  );

  server.registerTool(
    'add_source',
    {
      title: 'Add a web source to a memory',
      description:
        'Adds a web address to a memory and starts ingestion: kind page fetches one page, sitemap every page a sitemap lists, crawl the pages reachable from the address on the same site. ' +
        'kmem fetches them itself; check ingestion_status for when they are searchable.',
      inputSchema: z.object({
        memoryID,
        url: z
          .url({ protocol: /^https?$/ })
          .max(2048)
          .describe('An http or https address'),
        kind: z.enum(['page', 'sitemap', 'crawl']).optional().describe('page (default), sitemap or crawl'),
        name: z
          .string()
          .min(1)
          .max(255)
          .optional()
          .describe('A name for the source (default: its host and path, / as _, e.g. example.com_docs_intro)'),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    async ({ memoryID: id, url, kind, name }) => {
      const fileType = SOURCE_KINDS[kind ?? 'page'];
      const file = await kmem.createFile({ body: { name: name ?? sourceNameOf(url), external_uri: url, fileType } });
      if (!file.ok) return refused(file.error);
      return ingestInto(kmem, id, file.data.data.id, `Added ${url} as ${fileType} file ${file.data.data.id}`, 0);
    },
  );

  server.registerTool(
    'forget_file',
    {
      title: 'Forget a file',
      description:
        'With memoryID: removes the file from that memory, with everything it contributed (passages, entities, facts); the file stays for other memories. ' +
        'Without memoryID: deletes the file itself, which kmem refuses while a memory still holds it.',
      inputSchema: z.object({
        fileID: z.string().min(1).max(128).describe('The file id (a search result names its source file)'),
        memoryID: memoryID.optional().describe('Remove the file from this memory only'),
      }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ fileID, memoryID: id }) => {
      if (id) {
        const removed = await kmem.removeMemoryFile({ params: { query: { fileID, memoryID: id } } });
        return removed.ok
          ? answered(`Removed file ${fileID} from memory ${id}.`, { fileID, memoryID: id, removed: true })
          : refused(removed.error);
      }
      const deleted = await kmem.deleteFile({ params: { path: { id: fileID } } });
      return deleted.ok ? answered(`Deleted file ${fileID}.`, { fileID, deleted: true }) : refused(deleted.error);
    },
  );
}

/** A file name for a web address: its host and path, each `/` (a file name holds none) as `_`. */
function sourceNameOf(url: string): string {
  const { host, pathname } = new URL(url);
  const path = pathname.replace(/\/+$/, '').replace(/\/+/g, '_');
  return `${host}${path}`.slice(0, 255);
}

/** Adds the file to the memory, starts ingestion and, when asked, waits for it to be searchable. */
async function ingestInto(kmem: KmemClient, memoryId: string, fileId: string, done: string, waitSeconds: number): Promise<CallToolResult> {
  const before = await kmem.getMemory({ params: { path: { id: memoryId } } });
  if (!before.ok) return refused(before.error);
  const added = await kmem.addMemoryFiles({ body: { memoryID: memoryId, files: [fileId] } });
  if (!added.ok) return refused(added.error);
  const started = await kmem.startIngestion({ body: { memoryID: memoryId } });
  if (!started.ok) return refused(started.error, `The file ${fileId} is in the memory; start ingestion again later.`);
  const summary = { fileID: fileId, memoryID: memoryId, jobID: started.data.data.jobID };
  if (waitSeconds === 0)
    return answered(`${done}; ingestion ${started.data.data.jobID} started. Check ingestion_status for when it is searchable.`, {
      ...summary,
      step: 'queued',
    });
  return awaitIndex(kmem, { memoryId, previousVersion: before.data.data.indexVersion, done, summary }, Date.now() + waitSeconds * 1000);
}

interface IndexWait {
  readonly memoryId: string;
  /** The index version before the ingestion: a later one means the file is searchable. */
  readonly previousVersion: number;
  readonly done: string;
  readonly summary: { fileID: string; memoryID: string; jobID: string };
}

/** Polls the memory until its ingestion finished (a newer index, or failed) or the deadline passed, and says which. */
async function awaitIndex(kmem: KmemClient, wait: IndexWait, deadline: number): Promise<CallToolResult> {
  for (;;) {
    const memory = await kmem.getMemory({ params: { path: { id: wait.memoryId } } });
    if (!memory.ok) return refused(memory.error);
    const { step, indexVersion, lastError } = memory.data.data;
    const finished = step === 'failed' || (step === 'ready' && indexVersion > wait.previousVersion);
    if (finished || Date.now() >= deadline)
      return answered(`${wait.done}; ${ingestionState(finished, step, lastError)}.`, { ...wait.summary, step });
    await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
  }
}

function ingestionState(finished: boolean, step: string, lastError: string | null | undefined): string {
  if (!finished) return `still ${step}`;
  return step === 'ready' ? 'it is searchable now' : `ingestion failed: ${lastError ?? 'see ingestion_status'}`;
}
