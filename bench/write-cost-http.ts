/**
 * `bench:write-cost -- --http`: one new file searchable as a new user sees it on the local runtime (#23):
 * a server process (bench/support/serve.ts: the API, the worker thread, dynalite, s3rver and the file
 * queue), a vector memory filled by one bulk ingestion of synthetic text files, then, three times, one
 * one-paragraph file uploaded, processed, added and ingested over HTTP, timed until `GET /memory/`
 * answers it first (medians). Polls every 20 ms, so a step costs at most that much more than it takes.
 */
import { chunkText } from '../functions/engine';
import type { BenchFile } from './latency/corpus';
import { buildMemory, uploadFiles, waitProcessed } from './latency/build';
import { type ApiClient, apiClient } from './support/api';
import { startServerProcess } from './support/server-process';
import { syntheticText } from './support/synthetic-text';

const CHUNK_SIZE = 200;
const POLL_MS = 20;
const WAIT_LIMIT_MS = 120_000;
/** Synthetic files of the bulk ingestion: few and large, as a bulk upload of documents. */
const CHUNKS_PER_FILE = 250;

interface Round {
  searchable: number;
  processed: number;
}

/** The table's rows, one per size (chunks as the memory reports them). */
export async function measureOverHttp(sizes: readonly number[], rounds: number): Promise<string[]> {
  const rows = [
    '| chunks | bulk ingestion (s) | one new file searchable over HTTP (s) | of which upload and processing (s) | of which add, ingest and first found (s) |',
    '|---:|---:|---:|---:|---:|',
  ];
  for (const size of sizes) rows.push(await measureSize(size, rounds));
  return rows;
}

async function measureSize(size: number, rounds: number): Promise<string> {
  // what the server process inherits: a token budget for the bulk ingestion, and a queue visibility above
  // its build (as bench:latency sets them)
  process.env.KMEM_DEFAULT_TOKEN_LIMIT = '1000000000';
  process.env.KMEM_LOCAL_QUEUE_VISIBILITY_SECONDS = '900';
  const server = await startServerProcess();
  try {
    const api = apiClient(server.info.url, server.info.apiKey);
    const started = performance.now();
    const fileIds = await uploadFiles(api, server.info, bulkFiles(size));
    await waitProcessed(api, fileIds);
    const memory = await buildMemory(api, { label: `write-cost ${size}`, acceleration: false, chunkSize: CHUNK_SIZE, fileIds });
    const bulkSeconds = (performance.now() - started) / 1000;
    const timed: Round[] = [];
    for (let round = 0; round < rounds; round++) timed.push(await addOneFile(api, server.info, memory.memoryId, round));
    const middle = (pick: (round: Round) => number) => timed.map(pick).sort((a, b) => a - b)[Math.floor(timed.length / 2)] ?? 0;
    const columns = [
      bulkSeconds.toFixed(1),
      middle((r) => r.searchable).toFixed(2),
      middle((r) => r.processed).toFixed(2),
      middle((r) => r.searchable - r.processed).toFixed(2),
    ];
    return `| ${memory.chunkCount.toLocaleString('en')} | ${columns.join(' | ')} |`;
  } finally {
    await server.stop();
  }
}

/** Text files that chunk (at `CHUNK_SIZE`) into about `size` chunks. */
function bulkFiles(size: number): BenchFile[] {
  const sample = syntheticText(1, 4000);
  const wordsPerChunk = 4000 / chunkText(sample, { chunkSize: CHUNK_SIZE, overlapPercent: 10 }).length;
  const files = Math.max(1, Math.round(size / CHUNKS_PER_FILE));
  const words = Math.round((size / files) * wordsPerChunk);
  return Array.from({ length: files }, (_, f) => ({ name: `bulk${f}.txt`, text: syntheticText(f * 7919 + 3, words) }));
}

/** Uploads, processes, adds and ingests one one-paragraph file, then polls a query until it answers it first. */
async function addOneFile(api: ApiClient, server: { url: string; apiKey: string }, memoryId: string, round: number): Promise<Round> {
  const word = `zebracode${round}`;
  const text = `The ${word} paragraph names a quasar lighthouse nobody else mentions.`;
  const started = performance.now();
  const [fileId] = await uploadFiles(api, server, [{ name: `fresh${round}.txt`, text }]);
  if (!fileId) throw new Error('the upload answered no file');
  await poll(async () => ((await api.get(`/files/get/${fileId}`)).data as { state: string }).state === 'ready');
  const processed = (performance.now() - started) / 1000;
  await api.post('/memories/add-files', { memoryID: memoryId, files: [fileId] });
  await api.post('/memories/start-ingestion', { memoryID: memoryId });
  const query = new URLSearchParams({ memoryID: memoryId, query: `${word} quasar lighthouse`, topK: '1' });
  await poll(async () => {
    const payload = (await api.get(`/memory/?${query.toString()}`)).payload as Array<{ content: string }> | undefined;
    return payload?.[0]?.content.includes(word) === true;
  });
  return { searchable: (performance.now() - started) / 1000, processed };
}

async function poll(done: () => Promise<boolean>): Promise<void> {
  const deadline = performance.now() + WAIT_LIMIT_MS;
  while (!(await done())) {
    if (performance.now() > deadline) throw new Error(`gave up waiting after ${WAIT_LIMIT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
