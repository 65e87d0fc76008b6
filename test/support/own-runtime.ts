/**
 * A local runtime of a test file's own, for settings the shared runtime does not have (an answer model, a
 * reranker: their doubles are HTTP servers on 127.0.0.1 the file starts). Lexical only and without graph
 * word vectors unless the settings say otherwise; its data folder is removed when it stops.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Runtime } from '../../functions/local/runtime';
import type { Json } from './api';
import { setProcessEnv } from './process-env';

export interface OwnRuntime {
  readonly url: string;
  /** One API call with the runtime's own key; the answer's status and JSON body. */
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }>;
  /** Uploads `text` and creates a text file of it; answers the file's id. */
  textFile(name: string, text: string): Promise<string>;
  /** A vector memory of text files (name, text), ingested and ready; answers its id. */
  readyVectorMemory(name: string, files: ReadonlyArray<readonly [string, string]>): Promise<string>;
  stop(): Promise<void>;
}

/** Three small files, two on the Analytical Engine: what the answer-model and reranker suites ask about. */
export const ENGINE_FILES = [
  ['babbage.txt', 'Charles Babbage designed the Analytical Engine in 1837. It was never completed.'],
  ['lovelace.txt', 'Ada Lovelace wrote the first program for the Analytical Engine.'],
  ['bread.txt', 'Knead the dough and let it rise for an hour.'],
] as const;

export async function startOwnRuntime(key: string, settings: Record<string, string>): Promise<OwnRuntime> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kmem-own-runtime-'));
  const restoreEnv = setProcessEnv({ POWERTOOLS_LOG_LEVEL: 'ERROR' });
  const { startRuntime } = await import('../../functions/local/runtime');
  const runtime: Runtime = await startRuntime({
    settings: {
      KMEM_DATA_DIR: dataDir,
      KMEM_PORT: '0',
      KMEM_API_KEY: key,
      KMEM_EMBEDDER: 'none',
      KMEM_GRAPH_WORD_VECTORS: 'false',
      ...settings,
    },
  });
  const call: OwnRuntime['call'] = async (method, path, body) => {
    const headers: Record<string, string> = { 'X-API-Key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
    const response = await fetch(`${runtime.url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const textFile: OwnRuntime['textFile'] = async (name, text) => {
    const form = new FormData();
    form.append('file', new Blob([text], { type: 'text/plain' }), name);
    const uploaded = await fetch(`${runtime.url}/files/upload`, { method: 'POST', headers: { 'X-API-Key': key }, body: form });
    const { data } = (await uploaded.json()) as { data: { key: string } };
    return (await call('POST', '/files/create', { name, key: data.key, fileType: 'text' })).body.data.id as string;
  };
  const readyVectorMemory: OwnRuntime['readyVectorMemory'] = async (name, texts) => {
    const files: string[] = [];
    for (const [fileName, text] of texts) files.push(await textFile(fileName, text));
    const memoryId = (await call('POST', '/memories/create', { name, memoryType: 'vector' })).body.data.id as string;
    await call('POST', '/memories/add-files', { memoryID: memoryId, files });
    await call('POST', '/memories/start-ingestion', { memoryID: memoryId });
    const deadline = Date.now() + 30_000;
    while ((await call('GET', `/memories/get/${memoryId}`)).body.data.step !== 'ready') {
      if (Date.now() > deadline) throw new Error(`ingestion of memory '${name}' did not finish`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return memoryId;
  };
  const stop = async () => {
    await runtime.stop();
    rmSync(dataDir, { recursive: true, force: true });
    restoreEnv();
  };
  return { url: runtime.url, call, textFile, readyVectorMemory, stop };
}
