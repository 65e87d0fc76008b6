/**
 * `npm run bench:s3vectors -- --fused`: kmem end to end with a tiered memory, against the S3 Vectors double
 * (functions/local/s3vectors-double/, in this process) through the real SDK client. Ingests `--vectors`
 * chunks through the worker's build (`buildAndPublishIndex`: embedding, segments, PutVectors in batches of
 * 500) in builds of `--batch` chunks, then asks `--queries` fused queries through the retrieval use case
 * (BM25, fusion and filters kmem's; the vector candidates from QueryVectors), warm, and prints ingestion
 * throughput and the query p50/p99 with the double's own search time (an exact scan) apart. With
 * `--resident` the same chunks go into a resident memory too, queried the same way, for comparison.
 * The other stores are in memory; the embedder is the configured one (offline word vectors by default).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localConfig, type Settings } from '../functions/config';
import { buildAndPublishIndex } from '../functions/core/ingest/memory-index';
import type { StoredChunk } from '../functions/core/stored-index/chunks';
import { createAccount } from '../functions/core/use-cases/accounts';
import { createMemory } from '../functions/core/use-cases/memories';
import { retrieveFromMemory } from '../functions/core/use-cases/retrieve-memory';
import { composeMemoryDeps, type MemoryDeps } from '../functions/local/compose';
import { startS3VectorsDouble, type S3VectorsDouble } from '../functions/local/s3vectors-double';
import { composeWorkerDeps } from '../functions/worker/deps';

const BUCKET = 'kmem-bench-fused';
const CHUNKS_PER_FILE = 10;
const WORDS_PER_CHUNK = 24;

export interface FusedOptions {
  vectors: number;
  batch: number;
  queries: number;
  topK: number;
  resident: boolean;
}

const VOCABULARY = (
  'tide moon owl night bread salt glacier valley river stone wind harbour cell protein gene dose trial patient risk ' +
  'blood brain heart liver lung bone muscle virus cancer immune signal enzyme forest mountain ocean island desert ' +
  'city village market school teacher student book letter paper window door garden flower tree leaf seed farmer ' +
  'horse cattle sheep wheat barley apple orange lemon coffee tea sugar milk cheese butter kitchen table chair lamp ' +
  'train station engine wheel road bridge tunnel ship boat sail anchor storm rain snow ice sun cloud star planet ' +
  'music song piano violin drum dance theatre painting museum history war peace king queen castle church law court ' +
  'money bank price trade company worker factory steel iron copper gold silver coal oil gas power energy light'
).split(' ');

/** Deterministic pseudo-random words (a linear congruential generator): every run indexes the same text. */
function wordsOf(seed: number, count: number): string {
  let state = (seed * 2654435761) >>> 0;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    out.push(VOCABULARY[(state >>> 8) % VOCABULARY.length] ?? 'stone');
  }
  return out.join(' ');
}

function fileChunks(file: number): StoredChunk[] {
  const fileId = `f${file}`;
  return Array.from({ length: CHUNKS_PER_FILE }, (_, i) => {
    const text = wordsOf(file * CHUNKS_PER_FILE + i + 1, WORDS_PER_CHUNK);
    return { id: `${fileId}:${i}`, fileId, text, start: i * 1000, end: i * 1000 + text.length, title: fileId };
  });
}

interface Loaded {
  deps: MemoryDeps;
  accountId: string;
  memoryId: string;
  seconds: number;
}

async function ingest(settings: Settings, opts: FusedOptions, label: string): Promise<Loaded> {
  const config = localConfig({
    KMEM_DATA_DIR: mkdtempSync(join(tmpdir(), 'kmem-s3v-fused-')),
    AWS_REGION: 'local',
    KMEM_GRAPH_WORD_VECTORS: 'false',
    ...settings,
  });
  const deps = composeMemoryDeps(config);
  const worker = { ...composeWorkerDeps(deps), queue: { send: async () => undefined } }; // merges left out: segments stay as built
  const accountId = (await createAccount(deps, `s3v-fused-${label}-${Date.now()}`)).account.id;
  const memoryId = (await createMemory(deps, accountId, { name: 'bench', memoryType: 'vector' })).id;
  const files = Math.ceil(opts.vectors / CHUNKS_PER_FILE);
  const perBuild = Math.max(1, Math.floor(opts.batch / CHUNKS_PER_FILE));
  await worker.indexing.embedder()?.embed(['warm up']); // loading the word vectors is not ingestion
  const started = performance.now();
  for (let first = 0; first < files; first += perBuild) {
    const added = new Map<string, StoredChunk[]>();
    const at = new Date().toISOString();
    for (let file = first; file < Math.min(files, first + perBuild); file++) {
      added.set(`f${file}`, fileChunks(file));
      const link = { id: `f${file}-l`, accountId, memoryId, fileId: `f${file}`, type: 'file' as const };
      await deps.links.create({ ...link, ingestedAt: at, createdAt: at, updatedAt: at });
    }
    await buildAndPublishIndex(worker, accountId, memoryId, { added, changes: ({ chunkCount, fileCount }) => ({ chunkCount, fileCount }) });
    const elapsed = ((performance.now() - started) / 1000).toFixed(1);
    process.stderr.write(`[${label}] ${Math.min(files, first + perBuild) * CHUNKS_PER_FILE} chunks, ${elapsed} s\n`);
  }
  return { deps, accountId, memoryId, seconds: (performance.now() - started) / 1000 };
}

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

interface Timings {
  total: number[];
  search: number[];
  calls: number;
}

async function queries(loaded: Loaded, opts: FusedOptions, double?: S3VectorsDouble): Promise<Timings> {
  const ask = (q: number) =>
    retrieveFromMemory(loaded.deps, loaded.accountId, {
      memoryId: loaded.memoryId,
      query: wordsOf(1_000_000_007 + q, 3),
      topK: opts.topK,
      facts: false,
      assisted: false,
    });
  await ask(-1); // the warm-up: loads and composes the segments once
  const callsBefore = double?.calls.QueryVectors ?? 0;
  const total: number[] = [];
  const search: number[] = [];
  for (let q = 0; q < opts.queries; q++) {
    const before = double?.searchMs.length ?? 0;
    const started = performance.now();
    await ask(q);
    total.push(performance.now() - started);
    search.push(double ? double.searchMs.slice(before).reduce((a, b) => a + b, 0) : 0);
  }
  return { total, search, calls: (double?.calls.QueryVectors ?? 0) - callsBefore };
}

const row = (name: string, t: Timings): string => {
  const rest = t.total.map((ms, i) => ms - (t.search[i] ?? 0));
  const f = (v: number) => v.toFixed(1);
  return `| ${name} | ${f(percentile(t.total, 50))} | ${f(percentile(t.total, 99))} | ${f(percentile(t.search, 50))} | ${f(percentile(t.search, 99))} | ${f(percentile(rest, 50))} | ${f(percentile(rest, 99))} | ${t.calls} |`;
};

/** Runs the end-to-end bench; answers its report's lines. */
export async function fusedBench(opts: FusedOptions): Promise<string[]> {
  const double = await startS3VectorsDouble({ buckets: [BUCKET] });
  try {
    const tier = {
      KMEM_VECTOR_STORE: 's3vectors',
      KMEM_VECTOR_BUCKET_NAME: BUCKET,
      KMEM_VECTOR_TIER_THRESHOLD_CHUNKS: '1',
      KMEM_S3VECTORS_ENDPOINT: double.endpoint,
    };
    const tiered = await ingest(tier, opts, 'tiered');
    const puts = double.calls.PutVectors ?? 0;
    const tieredTimes = await queries(tiered, opts, double);
    const lines = [
      `- chunks: ${opts.vectors} (${CHUNKS_PER_FILE} a file, ${WORDS_PER_CHUNK} words each), builds of ${opts.batch}; ${opts.queries} fused queries (3 words), topK ${opts.topK}, warm`,
      '',
      '| ingestion | chunks | seconds | chunks/s | PutVectors calls |',
      '|---|---:|---:|---:|---:|',
      `| tiered (build + PutVectors) | ${opts.vectors} | ${tiered.seconds.toFixed(1)} | ${(opts.vectors / tiered.seconds).toFixed(0)} | ${puts} |`,
    ];
    let resident: Timings | undefined;
    if (opts.resident) {
      const loaded = await ingest({}, opts, 'resident');
      lines.push(
        `| resident (build) | ${opts.vectors} | ${loaded.seconds.toFixed(1)} | ${(opts.vectors / loaded.seconds).toFixed(0)} | 0 |`,
      );
      resident = await queries(loaded, opts);
    }
    lines.push(
      '',
      '| fused query (GET /memory/ use case) | p50 ms | p99 ms | double search p50 ms | double search p99 ms | the rest p50 ms | the rest p99 ms | QueryVectors calls |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      row('tiered (vector candidates from QueryVectors)', tieredTimes),
      ...(resident ? [row('resident (vectors in the segments)', resident)] : []),
    );
    return lines;
  } finally {
    await double.close();
  }
}
