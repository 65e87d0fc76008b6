/** A minimal JSON client for seeding the benchmark's data over the API (the way a real client would). */

export interface ApiClient {
  post(path: string, body: unknown): Promise<Record<string, unknown>>;
  get(path: string): Promise<Record<string, unknown>>;
}

export function apiClient(url: string, apiKey: string): ApiClient {
  const call = async (method: string, path: string, body?: unknown) => {
    const send = () =>
      fetch(`${url}${path}`, {
        method,
        headers: { 'X-API-Key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    // a GET may meet a kept-alive connection the server closed at that moment: send it once more
    const response = await send().catch((error: unknown) => (method === 'GET' ? send() : Promise.reject(error)));
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  return { post: (path, body) => call('POST', path, body), get: (path) => call('GET', path) };
}

/** Runs `task` for 0..count-1 with at most `concurrency` in flight; returns the results in order. */
export async function inParallel<T>(count: number, concurrency: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}

/** The `data.id` of a success envelope. */
export function idOf(answer: Record<string, unknown>): string {
  const data = answer.data as { id?: unknown } | undefined;
  if (typeof data?.id !== 'string') throw new Error(`answer has no data.id: ${JSON.stringify(answer).slice(0, 300)}`);
  return data.id;
}
