/**
 * Builds the benchmark's memories through the API, as a client would: upload the text files, wait until
 * the worker has processed them, then per memory create it, add the files, start the ingestion and wait
 * for `ready`. The ingestion is the real index build (chunking, BM25, embeddings, HNSW with acceleration).
 */
import { type ApiClient, inParallel } from '../support/api';
import type { BenchFile } from './corpus';

export interface BuiltMemory {
  label: string;
  acceleration: boolean;
  memoryId: string;
  chunkCount: number;
  indexVersion: number;
  /** add-files calls (links) and start-ingestion to `ready` (chunk, build, publish), in ms. */
  addFilesMs: number;
  buildMs: number;
}

const UPLOAD_CONCURRENCY = 8;
const ADD_FILES_BATCH = 100;
const POLL_MS = 500;
const MAX_NETWORK_FAILURES = 5;
/** Keeps the harness bounded: processing or one index build taking longer than this fails the run. */
const WAIT_LIMIT_MS = 60 * 60_000;

export async function uploadFiles(api: ApiClient, server: { url: string; apiKey: string }, files: readonly BenchFile[]): Promise<string[]> {
  return inParallel(files.length, UPLOAD_CONCURRENCY, async (i) => {
    const file = files[i]!;
    const form = new FormData();
    form.append('file', new Blob([file.text], { type: 'text/plain' }), file.name);
    const sent = await fetch(`${server.url}/files/upload`, { method: 'POST', headers: { 'X-API-Key': server.apiKey }, body: form });
    if (!sent.ok) throw new Error(`upload ${file.name}: ${sent.status} ${(await sent.text()).slice(0, 300)}`);
    const { key } = ((await sent.json()) as { data: { key: string } }).data;
    const created = await api.post('/files/create', { name: file.name, key, fileType: 'text' });
    return (created.data as { id: string }).id;
  });
}

/** Waits until every file is `ready`; fails on the first `failed` one. */
export async function waitProcessed(api: ApiClient, fileIds: readonly string[]): Promise<void> {
  const wanted = new Set(fileIds);
  await until(async () => {
    const states = (await listFiles(api)).filter((file) => wanted.has(file.id));
    const failed = states.find((file) => file.state === 'failed');
    if (failed) throw new Error(`file ${failed.id} failed: ${failed.error ?? 'no reason given'}`);
    return states.filter((file) => file.state === 'ready').length === wanted.size ? true : undefined;
  });
}

export async function buildMemory(
  api: ApiClient,
  plan: { label: string; acceleration: boolean; chunkSize: number; fileIds: readonly string[] },
): Promise<BuiltMemory> {
  const created = await api.post('/memories/create', {
    name: `latency ${plan.label}`,
    memoryType: 'vector',
    chunkSize: plan.chunkSize,
    acceleration: plan.acceleration,
  });
  const memoryId = (created.data as { id: string }).id;
  let started = performance.now();
  for (let i = 0; i < plan.fileIds.length; i += ADD_FILES_BATCH) {
    await api.post('/memories/add-files', { memoryID: memoryId, files: plan.fileIds.slice(i, i + ADD_FILES_BATCH) });
  }
  const addFilesMs = performance.now() - started;
  started = performance.now();
  await api.post('/memories/start-ingestion', { memoryID: memoryId });
  const ready = await until(async () => {
    const memory = (await api.get(`/memories/get/${memoryId}`)).data as MemoryState;
    if (memory.step === 'failed') throw new Error(`memory ${plan.label} failed: ${memory.lastError ?? 'no reason given'}`);
    return memory.step === 'ready' ? memory : undefined;
  });
  const buildMs = performance.now() - started;
  if (ready.failedFiles.length > 0) throw new Error(`memory ${plan.label}: ${ready.failedFiles.length} files failed to ingest`);
  return {
    label: plan.label,
    acceleration: plan.acceleration,
    memoryId,
    chunkCount: ready.chunkCount,
    indexVersion: ready.indexVersion,
    addFilesMs,
    buildMs,
  };
}

interface MemoryState {
  step: string;
  chunkCount: number;
  indexVersion: number;
  failedFiles: Array<{ fileID: string; error: string }>;
  lastError: string | null;
}

interface FileState {
  id: string;
  name: string;
  state: string;
  error?: string | null;
}

export async function listFiles(api: ApiClient): Promise<FileState[]> {
  const all: FileState[] = [];
  let token: string | null = null;
  do {
    const page: Record<string, unknown> = await api.get(`/files/list?limit=100${token ? `&nextToken=${encodeURIComponent(token)}` : ''}`);
    all.push(...(page.files as FileState[]));
    token = (page.nextToken as string | null | undefined) ?? null;
  } while (token);
  return all;
}

/**
 * Polls until `probe` answers a value. While the worker builds an index it holds the server's event loop
 * for seconds; the server may then close an idle keep-alive socket just as a poll reuses it, and fetch
 * fails with a TypeError: such network failures are retried (a few in a row), any other error is thrown.
 */
async function until<T>(probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = performance.now() + WAIT_LIMIT_MS;
  for (let networkFailures = 0; ; ) {
    if (performance.now() > deadline) throw new Error(`gave up waiting after ${WAIT_LIMIT_MS / 60_000} minutes`);
    try {
      const value = await probe();
      if (value !== undefined) return value;
      networkFailures = 0;
    } catch (error) {
      if (!(error instanceof TypeError) || ++networkFailures > MAX_NETWORK_FAILURES) throw error;
    }
    await new Promise((done) => setTimeout(done, POLL_MS));
  }
}
