/**
 * Every call the console makes to the kmem API, in one place, through the typed client (packages/client):
 * same origin, the key in `X-API-Key`. The types below are what the screens read; the client's answers are
 * checked against them by the compiler. Only the bytes of an upload go by XHR (see `upload`).
 */
import { createKmemClient, KmemApiError, type KmemResult, type OperationInit, type Schemas } from '../../packages/client/src';
import { everyPage } from './paging';

export * from './api-types';
import type {
  Memory,
  MemoryDetails,
  KmemFile,
  MetadataEntry,
  FileDetails,
  Page,
  Account,
  Retrieval,
  GraphNode,
  GraphEdge,
  Entity,
  UserProfile,
  Session,
  SessionSummary,
  Message,
  StartedIngestion,
  CreatedFile,
} from './api-types';

/** A new memory as the form gives it: the API judges `ontology` and the rest, and its words are shown. */
export interface NewMemory {
  name: string;
  description?: string;
  memoryType: 'graph' | 'vector';
  ontology?: string;
  chunkSize?: number;
  chunkOverlap?: number;
  factExtraction?: boolean;
}

/** An API refusal, worded as the API worded it; `field` is the name its message starts with, if any. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly httpStatus: number,
    readonly data: Record<string, unknown> | undefined = undefined,
  ) {
    super(message);
  }

  static of(error: KmemApiError): ApiError {
    const data = error.body && 'data' in error.body ? error.body.data : undefined;
    return new ApiError(error.message, error.status, data);
  }

  get field(): string | undefined {
    return /^([\w.[\]]+): /.exec(this.message)?.[1];
  }
}

/** Files at most this large go through `/files/upload`; larger ones to the presigned address. */
const DIRECT_UPLOAD_BYTES = 5 * 1024 * 1024;

type QueryOf<Id extends 'listMemories' | 'listFiles' | 'listMessages' | 'searchMemory' | 'searchMessages'> = NonNullable<
  NonNullable<OperationInit<Id>['params']>['query']
>;
/**
 * A query as a form gives it: any field may still be text (or missing) and goes to the API as typed, so
 * the API, not the console, judges it and its words are shown; empty fields are left out.
 */
export type FormQuery<Q> = { [K in keyof Q]?: Q[K] | string | undefined };

export function createApi(apiKey: string, base = '') {
  const kmem = createKmemClient({ baseUrl: base || location.origin, apiKey });
  const path = (id: string) => ({ params: { path: { id } } });
  const page = <T>(items: T[], body: { nextToken: string | null; previousToken?: string | null }): Page<T> => ({
    items,
    nextToken: body.nextToken,
    previousToken: body.previousToken ?? null,
  });

  const listMemories = async (query: QueryOf<'listMemories'> = {}): Promise<Page<Memory>> => {
    const body = ok(await kmem.listMemories({ params: { query: { limit: 100, ...query } } }));
    return page(body.memories, body);
  };

  return {
    account: async (): Promise<Account> => ok(await kmem.getAccount()).data,
    listMemories,
    /** Every memory (for the pickers), 100 a request. */
    allMemories: (query: Omit<QueryOf<'listMemories'>, 'nextToken' | 'previousToken'> = {}): Promise<Memory[]> =>
      everyPage((nextToken) => listMemories({ ...query, nextToken })),
    getMemory: async (id: string): Promise<MemoryDetails> => ok(await kmem.getMemory(path(id))).data,
    createMemory: async (memory: NewMemory): Promise<Memory> =>
      ok(await kmem.createMemory({ body: memory as Schemas['CreateMemoryRequest'] })).data,
    deleteMemory: async (id: string): Promise<void> => void ok(await kmem.deleteMemory(path(id))),
    exportMemory: async (id: string): Promise<string> => ok(await kmem.exportMemory(path(id))).data.exportID,
    getExport: async (id: string): Promise<Schemas['MemoryExport']> => ok(await kmem.getMemoryExport(path(id))).data,
    restoreMemory: async (body: { archiveKey: string; name?: string }) => ok(await kmem.restoreMemory({ body })).data.memoryID,
    addFiles: async (memoryID: string, files: string[]): Promise<void> => void ok(await kmem.addMemoryFiles({ body: { memoryID, files } })),
    startIngestion: async (memoryID: string): Promise<StartedIngestion> => {
      const body = ok(await kmem.startIngestion({ body: { memoryID } }));
      return { message: body.message, ...body.data };
    },
    graphPage: async (id: string, nextToken?: string): Promise<{ nodes: GraphNode[]; edges: GraphEdge[]; nextToken: string | null }> =>
      ok(await kmem.getMemoryGraph({ params: { path: { id }, query: { limit: 5000, nextToken } } })),
    entities: async (memoryID: string, name: string): Promise<Entity[]> =>
      ok(await kmem.findMemoryEntities({ params: { path: { id: memoryID }, query: { name, limit: 10 } } })).entities,
    /** A customer user's profile in a graph memory, as it stood at `asOf` (default now). */
    profile: async (memoryID: string, customerUserID: string, asOf?: string): Promise<UserProfile> =>
      ok(await kmem.getMemoryProfile({ params: { path: { id: memoryID }, query: { customerUserID, ...(asOf ? { asOf } : {}) } } })).data,
    listFiles: async (query: QueryOf<'listFiles'> = {}): Promise<Page<KmemFile>> => {
      const body = ok(await kmem.listFiles({ params: { query: { limit: 100, ...query } } }));
      return page(body.files, body);
    },
    getFile: async (id: string): Promise<FileDetails> => ok(await kmem.getFile(path(id))).data,
    // `fileType` as the form gives it: the API judges it.
    createFile: async (file: { name: string; fileType: string; key?: string; external_uri?: string }): Promise<CreatedFile> =>
      ok(await kmem.createFile({ body: file as Schemas['CreateFileRequest'] })).data,
    deleteFile: async (id: string): Promise<void> => void ok(await kmem.deleteFile(path(id))),
    /** Replaces a file's metadata (nothing is ingested again; filters see it at the next query). */
    setFileMetadata: async (id: string, metadata: MetadataEntry[]): Promise<KmemFile> =>
      ok(await kmem.setFileMetadata({ ...path(id), body: { metadata } })).data,
    upload: (file: File, onProgress: (fraction: number) => void) => upload(kmem, apiKey, base, file, onProgress),
    retrieve: async (query: FormQuery<QueryOf<'searchMemory'>>): Promise<Retrieval> =>
      ok(await kmem.searchMemory({ params: { query: present(query) as QueryOf<'searchMemory'> } })),
    listMessages: async (query: QueryOf<'listMessages'>): Promise<Page<Message>> => {
      const body = ok(await kmem.listMessages({ params: { query: { limit: 100, ...query } } }));
      return page(body.messages, body);
    },
    searchMessages: async (query: FormQuery<QueryOf<'searchMessages'>>): Promise<Message[]> =>
      ok(await kmem.searchMessages({ params: { query: present(query) as QueryOf<'searchMessages'> } })).messages,
    getSession: async (id: string): Promise<Session> => ok(await kmem.getSession(path(id))).data,
    getSessionSummary: async (id: string): Promise<SessionSummary> => ok(await kmem.getSessionSummary(path(id))).data,
  };
}

export type Api = ReturnType<typeof createApi>;
type Kmem = ReturnType<typeof createKmemClient>;

/** The data of a call, or its refusal thrown as an ApiError (the screens show `message` and `field`). */
function ok<T>(result: KmemResult<T>): T {
  if (!result.ok) throw ApiError.of(result.error);
  return result.data;
}

function present<Q extends object>(query: Q): Partial<Q> {
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== '')) as Partial<Q>;
}

/**
 * Sends a file with upload progress and answers its key. The client makes the API calls it can make with
 * fetch (the presigned address); the bytes go by XHR because fetch reports no upload progress: small files
 * as the multipart `/files/upload`, larger ones PUT to the presigned address. Refusals are worded by the
 * client's own reading of an error answer.
 */
async function upload(kmem: Kmem, apiKey: string, base: string, file: File, onProgress: (fraction: number) => void): Promise<string> {
  if (file.size <= DIRECT_UPLOAD_BYTES) {
    const form = new FormData();
    form.append('file', file, file.name);
    const body = await send('POST', `${base}/files/upload`, form, { 'X-API-Key': apiKey }, onProgress);
    return (body.data as { key: string }).key;
  }
  const contentType = file.type || 'application/octet-stream';
  const { key, uploadUrl } = ok(await kmem.createUploadUrl({ body: { name: file.name, contentType, size: file.size } })).data;
  await send('PUT', uploadUrl, file, { 'content-type': contentType }, onProgress);
  return key;
}

function send(
  method: string,
  url: string,
  body: XMLHttpRequestBodyInit,
  headers: Record<string, string>,
  onProgress: (fraction: number) => void,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    xhr.onerror = () => reject(new ApiError(`${method} ${new URL(url, location.href).pathname}: network error`, 0));
    xhr.onload = () => {
      let parsed: Record<string, unknown> = {};
      try {
        parsed = xhr.responseText ? (JSON.parse(xhr.responseText) as Record<string, unknown>) : {};
      } catch {
        parsed = {};
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(parsed);
      else reject(ApiError.of(KmemApiError.fromAnswer(xhr.status, parsed)));
    };
    xhr.send(body);
  });
}
