/**
 * The typed kmem client: `createKmemClient({ baseUrl, apiKey })` gives one method per API operation, named
 * by its OpenAPI operation id (`createMemory`, `searchMemory`, ...), typed from the generated document
 * types and answering a `KmemResult` (the data, or the error as a value); async iteration over paged
 * lists; upload helpers for small files (multipart) and large ones (a presigned address); and the
 * underlying openapi-fetch client as `http`.
 */
import createClient, { type FetchOptions } from 'openapi-fetch';
import { KmemApiError, type KmemResult } from './errors';
import { OPERATIONS, type components, type operations, type paths } from './generated/openapi';

export { KmemApiError, unwrap, type ErrorBody, type KmemErrorCode, type KmemResult } from './errors';
export type { components, operations, paths } from './generated/openapi';

export type Schemas = components['schemas'];
export type OperationId = keyof typeof OPERATIONS;
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;
/** The success body of an operation. */
export type OperationData<Id extends OperationId> = JsonOf<operations[Id]['responses'][200]>;
/** What an operation takes: `params` (`path`, `query`) and `body`, as openapi-fetch takes them. */
export type OperationInit<Id extends OperationId> = FetchOptions<operations[Id]>;
type InitArgs<Id extends OperationId> = object extends OperationInit<Id> ? [init?: OperationInit<Id>] : [init: OperationInit<Id>];
export type OperationMethods = { [Id in OperationId]: (...init: InitArgs<Id>) => Promise<KmemResult<OperationData<Id>>> };

/** Paged lists and the field holding their items. */
const LIST_ITEMS = {
  listMemories: 'memories',
  listFiles: 'files',
  listUsers: 'users',
  listMessages: 'messages',
  getMemoryGraph: 'nodes',
} as const;
export type PagedOperationId = keyof typeof LIST_ITEMS;
export type PageItem<Id extends PagedOperationId> =
  OperationData<Id> extends Record<(typeof LIST_ITEMS)[Id], ReadonlyArray<infer T>> ? T : never;

export type UploadContent = Blob | Uint8Array | ArrayBuffer | string;
export interface UploadOptions {
  /** The file name kmem records. */
  name: string;
  contentType?: string;
}
export type Upload = Schemas['Upload'];
export type FileType = Schemas['CreateFileRequest']['fileType'];

export interface KmemClientOptions {
  /** Where kmem answers, e.g. `http://127.0.0.1:8080` or the stack's API address. */
  baseUrl: string;
  apiKey: string;
  /** Files larger than this go through a presigned address (`upload`); default 8 MB. */
  largeFileBytes?: number;
  fetch?: typeof globalThis.fetch;
}

const DEFAULT_LARGE_FILE_BYTES = 8 * 1024 * 1024;

type LooseRequest = (method: string, path: string, init?: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

export function createKmemClient(options: KmemClientOptions) {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const http = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { 'X-API-Key': options.apiKey },
    fetch: (request: Request) => fetchImpl(request),
  });
  const request = http.request as unknown as LooseRequest;

  async function call<Id extends OperationId>(id: Id, ...init: InitArgs<Id>): Promise<KmemResult<OperationData<Id>>> {
    const { method, path } = OPERATIONS[id];
    try {
      const { data, error, response } = await request(method, path, init[0]);
      if (response.ok) return { ok: true, status: response.status, data: data as OperationData<Id> };
      return { ok: false, status: response.status, error: KmemApiError.fromAnswer(response.status, error) };
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause);
      return { ok: false, status: 0, error: new KmemApiError(0, 'network', `kmem did not answer at ${options.baseUrl}: ${reason}`) };
    }
  }

  const methods = Object.fromEntries(
    (Object.keys(OPERATIONS) as OperationId[]).map((id) => [
      id,
      (init?: object) => (call as (id: OperationId, init?: object) => unknown)(id, init),
    ]),
  ) as OperationMethods;

  /** Every page of a paged list, following `nextToken`; a failed page throws its KmemApiError. */
  async function* pages<Id extends PagedOperationId>(id: Id, ...init: InitArgs<Id>): AsyncGenerator<OperationData<Id>> {
    const base = (init[0] ?? {}) as { params?: { query?: object } };
    let token: string | null = null;
    do {
      const query: object = { ...(base.params?.query ?? {}), ...(token ? { nextToken: token } : {}) };
      const result = await (call as (id: OperationId, init?: object) => Promise<KmemResult<unknown>>)(id, {
        ...base,
        params: { ...base.params, query },
      });
      if (!result.ok) throw result.error;
      const page = result.data as OperationData<Id>;
      yield page;
      token = (page as { nextToken: string | null }).nextToken;
    } while (token);
  }

  /** Every item of a paged list (`for await (const memory of kmem.paginate('listMemories'))`). */
  async function* paginate<Id extends PagedOperationId>(id: Id, ...init: InitArgs<Id>): AsyncGenerator<PageItem<Id>> {
    for await (const page of pages(id, ...init)) yield* (page as unknown as Record<string, PageItem<Id>[]>)[LIST_ITEMS[id]] ?? [];
  }

  /** POST /files/upload: the bytes in a multipart form; answers the key `createFile` takes. */
  async function uploadSmall(content: UploadContent, upload: UploadOptions): Promise<KmemResult<Upload>> {
    const form = new FormData();
    form.append('file', toBlob(content, upload.contentType), upload.name);
    const result = await call('uploadFile', { body: form as never, bodySerializer: (body: unknown) => body });
    return result.ok ? { ...result, data: result.data.data } : result;
  }

  /** POST /files/upload-url, then PUT the bytes to the presigned address: for files too large for one request. */
  async function uploadLarge(content: UploadContent, upload: UploadOptions): Promise<KmemResult<Upload>> {
    const blob = toBlob(content, upload.contentType);
    const address = await call('createUploadUrl', {
      body: { name: upload.name, size: blob.size, ...(blob.type ? { contentType: blob.type } : {}) },
    });
    if (!address.ok) return address;
    const { uploadUrl, ...uploaded } = address.data.data;
    try {
      const put = await fetchImpl(uploadUrl, { method: 'PUT', body: blob, headers: { 'content-type': uploaded.contentType } });
      if (!put.ok) return failed(put.status, `PUT to the presigned address answered HTTP ${put.status}`);
    } catch (cause) {
      return failed(0, `PUT to the presigned address failed: ${cause instanceof Error ? cause.message : String(cause)}`, 'network');
    }
    return { ok: true, status: 200, data: { key: uploaded.key, name: uploaded.name, size: blob.size, contentType: uploaded.contentType } };
  }

  /** Uploads small files in one request and large ones through a presigned address. */
  function upload(content: UploadContent, options_: UploadOptions): Promise<KmemResult<Upload>> {
    const size = toBlob(content, options_.contentType).size;
    return size > (options.largeFileBytes ?? DEFAULT_LARGE_FILE_BYTES) ? uploadLarge(content, options_) : uploadSmall(content, options_);
  }

  /** Uploads the bytes and creates a file from them; processing starts at once. */
  async function addFile(
    content: UploadContent,
    file: UploadOptions & { fileType: FileType },
  ): Promise<KmemResult<Schemas['CreatedFile']>> {
    const uploaded = await upload(content, file);
    if (!uploaded.ok) return uploaded;
    const created = await call('createFile', { body: { name: file.name, key: uploaded.data.key, fileType: file.fileType } });
    return created.ok ? { ...created, data: created.data.data } : created;
  }

  return { ...methods, call, pages, paginate, upload, uploadSmall, uploadLarge, addFile, http };
}

export type KmemClient = ReturnType<typeof createKmemClient>;

function toBlob(content: UploadContent, contentType?: string): Blob {
  if (content instanceof Blob) return contentType && content.type !== contentType ? new Blob([content], { type: contentType }) : content;
  return new Blob([content as string | ArrayBuffer | Uint8Array<ArrayBuffer>], {
    type: contentType ?? (typeof content === 'string' ? 'text/plain' : 'application/octet-stream'),
  });
}

function failed(
  status: number,
  message: string,
  code: 'network' | 'unexpected' = 'unexpected',
): { ok: false; status: number; error: KmemApiError } {
  return { ok: false, status, error: new KmemApiError(status, code, message) };
}

/**
 * The `filter` of `searchMemory` and `searchMessages` as an object: every condition holds for what comes
 * back. Pass it as `filter: searchFilter({...})` in the query (the API takes it as URL-encoded JSON).
 */
export interface SearchFilter {
  fileIDs?: string[];
  fileTypes?: FileType[];
  sessionIDs?: string[];
  customerUserIDs?: string[];
  roles?: Array<Schemas['Message']['role']>;
  sourceKeyPrefix?: string;
  /** Each key's value equals the string, or is one of the strings. */
  metadata?: Record<string, string | string[]>;
}

/** A SearchFilter as the query parameter takes it (JSON; openapi-fetch URL-encodes it). */
export function searchFilter(filter: SearchFilter): string {
  return JSON.stringify(filter);
}
