/**
 * Every call the console makes to the kmem API, in one place: same origin, the key in `X-API-Key`, the
 * documented shapes (interface.md and decisions.md). Swapping in packages/client changes this module only.
 */

export interface Memory {
  id: string;
  name: string;
  description: string;
  memoryType: 'graph' | 'vector';
  step: string;
  chunkSize: number | null;
  chunkOverlap: number | null;
  createdAt: string;
}

export interface MemoryDetails extends Memory {
  fileCount: number;
  chunkCount: number;
  entityCount: number;
  relationCount: number;
  factCount: number;
  failedFiles: { fileID: string; error: string }[];
  failedFileCount: number;
  lastError: string | null;
}

export type FileState = 'pending' | 'processing' | 'ready' | 'failed';

export interface KmemFile {
  id: string;
  name: string;
  fileType: string;
  category: string;
  state: FileState;
  error: string | null;
  length: number | null;
  size: number | null;
  tokens: number | null;
  createdAt: string;
}

export interface FileDetails extends KmemFile {
  externalURI: string | null;
  source: string;
  content: string | null;
  hiddenFilesTotal: number;
  hiddenFilesProcessed: number;
  hiddenFilesCreated: number;
  hiddenFilesIngested: number;
}

export interface Page<T> {
  items: T[];
  nextToken: string | null;
  previousToken: string | null;
}

export interface Account {
  name: string;
  totalTokenLimit: number;
  tokensRemaining: number;
  tokensUsed: number;
}

export interface Retrieval {
  payload: { content: string; score: number }[];
  facts: { content: string }[];
  sources: { id: string; name: string; url: string; score: number }[];
}

export interface GraphNode {
  id: string;
  name: string;
  type: string;
  aliases: string[];
  mentions: number;
}

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  predicate: string;
  weight: number;
}

export interface Entity {
  id: string;
  name: string;
  type: string;
  aliases: string[];
  relations: { relation: string; direction?: 'outgoing' | 'incoming'; target: { id: string; name: string } }[];
  facts: { content: string }[];
  passages: { content: string; fileID: string }[];
}

export interface Session {
  id: string;
  customerUserID: string;
  createdAt: string;
  endedAt: string | null;
  deletedAt: string | null;
}

export interface Message {
  id: string;
  sessionID: string;
  role: string;
  content: string;
  customerUserID: string;
  createdAt: string;
  score?: number;
}

export interface StartedIngestion {
  message: string;
  sampleCount: number;
  tokenMetrics: { tokensForIngestion: number; tokensRemaining: number; totalTokenLimit: number };
}

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

  get field(): string | undefined {
    return /^([\w.[\]]+): /.exec(this.message)?.[1];
  }
}

type Query = Record<string, string | number | boolean | undefined>;

/** Files at most this large go through `/files/upload`; larger ones to the presigned address. */
export const DIRECT_UPLOAD_BYTES = 5 * 1024 * 1024;

export function createApi(apiKey: string, base = '') {
  async function call<T>(method: string, path: string, options: { query?: Query; body?: unknown } = {}): Promise<T> {
    const headers: Record<string, string> = { 'X-API-Key': apiKey };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${base}${path}${queryString(options.query)}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok) throw errorOf(response.status, body);
    return body as T;
  }
  const page = <T>(name: string) => (body: Record<string, unknown>): Page<T> => ({
    items: body[name] as T[],
    nextToken: body.nextToken as string | null,
    previousToken: body.previousToken as string | null,
  });
  const data = <T>(body: { data: T }): T => body.data;

  return {
    account: () => call<{ data: Account }>('GET', '/account').then(data),
    listMemories: (query: Query = {}) =>
      call<Record<string, unknown>>('GET', '/memories/list', { query: { limit: 100, ...query } }).then(page<Memory>('memories')),
    getMemory: (id: string) => call<{ data: MemoryDetails }>('GET', `/memories/get/${enc(id)}`).then(data),
    createMemory: (memory: NewMemory) => call<{ data: Memory }>('POST', '/memories/create', { body: memory }).then(data),
    deleteMemory: (id: string) => call('DELETE', `/memories/delete/${enc(id)}`),
    addFiles: (memoryID: string, files: string[]) => call('POST', '/memories/add-files', { body: { memoryID, files } }),
    startIngestion: (memoryID: string) =>
      call<{ message: string; data: Omit<StartedIngestion, 'message'> }>('POST', '/memories/start-ingestion', { body: { memoryID } }).then(
        (b) => ({ message: b.message, ...b.data }),
      ),
    graphPage: (id: string, nextToken?: string) =>
      call<{ nodes: GraphNode[]; edges: GraphEdge[]; nextToken: string | null }>('GET', `/memories/graph/${enc(id)}`, {
        query: { limit: 5000, nextToken },
      }),
    entities: (memoryID: string, name: string) =>
      call<{ entities: Entity[] }>('GET', `/memories/entities/${enc(memoryID)}`, { query: { name, limit: 10 } }).then((b) => b.entities),
    listFiles: (query: Query = {}) =>
      call<Record<string, unknown>>('GET', '/files/list', { query: { limit: 100, ...query } }).then(page<KmemFile>('files')),
    getFile: (id: string) => call<{ data: FileDetails }>('GET', `/files/get/${enc(id)}`).then(data),
    createFile: (file: { name: string; fileType: string; key?: string; external_uri?: string }) =>
      call<{ data: KmemFile }>('POST', '/files/create', { body: file }).then(data),
    deleteFile: (id: string) => call('DELETE', `/files/delete/${enc(id)}`),
    upload: (file: File, onProgress: (fraction: number) => void) => upload(apiKey, base, file, onProgress),
    retrieve: (query: Query) => call<Retrieval>('GET', '/memory', { query }),
    listMessages: (query: Query) =>
      call<Record<string, unknown>>('GET', '/messages/list', { query: { limit: 100, ...query } }).then(page<Message>('messages')),
    searchMessages: (query: Query) => call<{ messages: Message[] }>('GET', '/messages/search', { query }).then((b) => b.messages),
    getSession: (id: string) => call<{ data: Session }>('GET', `/sessions/get/${enc(id)}`).then(data),
  };
}

export type Api = ReturnType<typeof createApi>;

const enc = encodeURIComponent;

function queryString(query: Query | undefined): string {
  const entries = Object.entries(query ?? {}).filter(([, v]) => v !== undefined && v !== '');
  return entries.length ? `?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)]))}` : '';
}

function errorOf(httpStatus: number, body: Record<string, unknown>): ApiError {
  const message = typeof body.error === 'string' ? body.error : typeof body.detail === 'string' ? body.detail : `HTTP ${httpStatus}`;
  return new ApiError(message, httpStatus, body.data as Record<string, unknown> | undefined);
}

/**
 * Sends a file's bytes with upload progress (XHR: fetch reports none): small files as the multipart
 * `/files/upload`, larger ones PUT to the presigned address `/files/upload-url` hands out. Answers the key.
 */
async function upload(apiKey: string, base: string, file: File, onProgress: (fraction: number) => void): Promise<string> {
  if (file.size <= DIRECT_UPLOAD_BYTES) {
    const form = new FormData();
    form.append('file', file, file.name);
    const body = await send('POST', `${base}/files/upload`, form, { 'X-API-Key': apiKey }, onProgress);
    return (body.data as { key: string }).key;
  }
  const contentType = file.type || 'application/octet-stream';
  const target = await send('POST', `${base}/files/upload-url`, JSON.stringify({ name: file.name, contentType }), {
    'X-API-Key': apiKey,
    'content-type': 'application/json',
  });
  const { key, uploadUrl } = target.data as { key: string; uploadUrl: string };
  await send('PUT', uploadUrl, file, { 'content-type': contentType }, onProgress);
  return key;
}

function send(
  method: string,
  url: string,
  body: XMLHttpRequestBodyInit,
  headers: Record<string, string>,
  onProgress?: (fraction: number) => void,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => event.lengthComputable && onProgress?.(event.loaded / event.total);
    xhr.onerror = () => reject(new ApiError(`${method} ${new URL(url, location.href).pathname}: network error`, 0));
    xhr.onload = () => {
      let parsed: Record<string, unknown> = {};
      try {
        parsed = xhr.responseText ? (JSON.parse(xhr.responseText) as Record<string, unknown>) : {};
      } catch {
        parsed = {};
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(parsed);
      else reject(errorOf(xhr.status, parsed));
    };
    xhr.send(body);
  });
}
