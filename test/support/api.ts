/** A small HTTP client for tests: real requests to the local runtime, JSON in and out. */
import { inject } from 'vitest';

export interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

export type Json = Record<string, any>;
export type RawBody = string | Uint8Array;

export const env = () => inject('kmem');

export async function call(
  method: string,
  path: string,
  options: { key?: string | null; body?: unknown; rawBody?: RawBody; headers?: Record<string, string> } = {},
): Promise<Answer<Json>> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? env().keyA : options.key;
  if (key !== null) headers['X-API-Key'] = key;
  let body: RawBody | undefined = options.rawBody;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const response = await fetch(`${env().url}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: Json;
  try {
    parsed = JSON.parse(text) as Json;
  } catch {
    throw new Error(`non-JSON answer ${response.status} from ${method} ${path}: ${text.slice(0, 200)}`);
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

export const get = (path: string, key?: string | null) => call('GET', path, { key });
export const post = (path: string, body: unknown, key?: string | null) => call('POST', path, { body, key });
export const del = (path: string, key?: string | null) => call('DELETE', path, { key });

/** Walks a listing forward through nextToken and returns every item. */
export async function listAll(path: string, name: string, key?: string): Promise<Json[]> {
  const items: Json[] = [];
  let token: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const url: string = token ? `${path}${separator}nextToken=${encodeURIComponent(token)}` : path;
    const answer = await get(url, key);
    if (answer.status !== 200) throw new Error(`${url}: ${answer.status} ${JSON.stringify(answer.body)}`);
    items.push(...(answer.body[name] as Json[]));
    token = answer.body.nextToken as string | null;
  } while (token);
  return items;
}

/** POST /files/upload with a multipart body holding one part named `file`. */
export async function upload(name: string, content: string | Uint8Array, key?: string, contentType = 'text/plain') {
  const form = new FormData();
  form.append('file', new Blob([content], { type: contentType }), name);
  const headers: Record<string, string> = { 'X-API-Key': key ?? env().keyA };
  const response = await fetch(`${env().url}/files/upload`, { method: 'POST', headers, body: form });
  return { status: response.status, body: (await response.json()) as Json };
}

/** Uploads text and creates a `text` file from it; answers the created file. */
export async function textFile(name: string, content: string, key?: string): Promise<Json> {
  const uploaded = await upload(name, content, key);
  if (uploaded.status !== 200) throw new Error(`upload: ${uploaded.status} ${JSON.stringify(uploaded.body)}`);
  const created = await post('/files/create', { name, key: uploaded.body.data.key, fileType: 'text' }, key);
  if (created.status !== 200) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.data as Json;
}

/**
 * The pause before the next poll of a wait that has lasted `elapsedMs`: a quarter of the wait so far, from
 * 100 ms to 500 ms. A poll is a request the runtime serves (about 15 ms of its CPU for a memory read on the
 * loaded 2-core machine), so a long wait asks less often; what it adds to a wait is at most a quarter of it.
 */
export const pollPause = (elapsedMs: number): number => Math.min(500, Math.max(100, elapsedMs / 4));

/** Polls `path` until `done` holds for its body (or fails after `timeoutMs`). */
export async function waitFor(path: string, done: (body: Json) => boolean, key?: string, timeoutMs = 20_000): Promise<Json> {
  const start = Date.now();
  for (;;) {
    const answer = await get(path, key);
    if (done(answer.body)) return answer.body;
    if (Date.now() > start + timeoutMs) throw new Error(`${path} did not reach the expected state: ${JSON.stringify(answer.body)}`);
    await new Promise((resolve) => setTimeout(resolve, pollPause(Date.now() - start)));
  }
}

/**
 * The longest an ingestion of a few small files (or one file's processing) is waited for. The run's first
 * ingestion waits for the worker thread to load its modules and for its first extraction to load the
 * extractors: 24.7 s from start-ingestion to ready beside two CPU hogs (load average 16, 11-28), past the
 * 20 s of `waitFor`. Later, a file's work queues behind the other files' in the one shared worker: a small
 * text file stayed pending 20 s while the cdk synth ran beside (load 10 to 15, 11-28).
 */
export const INGEST_WAIT_MS = 60_000;

/** Creates a memory, adds the files, starts ingestion and waits until the memory is ready or failed. */
export async function ingest(memory: Json, fileIds: string[], key?: string): Promise<Json> {
  const added = await post('/memories/add-files', { memoryID: memory.id, files: fileIds }, key);
  if (added.status !== 200) throw new Error(`add-files: ${added.status} ${JSON.stringify(added.body)}`);
  const started = await post('/memories/start-ingestion', { memoryID: memory.id }, key);
  if (started.status !== 200) throw new Error(`start-ingestion: ${started.status} ${JSON.stringify(started.body)}`);
  const done = await waitFor(
    `/memories/get/${memory.id}`,
    (b) => b.data?.step === 'ready' || b.data?.step === 'failed',
    key,
    INGEST_WAIT_MS,
  );
  return done.data as Json;
}
