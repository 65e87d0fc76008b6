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
