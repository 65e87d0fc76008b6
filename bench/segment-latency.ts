/**
 * Warm query latency of a segmented memory before and after its merges (issue #23: "warm p50/p99 also
 * right after 100 single-file ingestions with no merge run yet, at most 1.5x the merged figure").
 *
 *   npm run bench:segment-latency [-- --chunks 100000 --singles 100 --queries 500 --data DIR --cpu-prof DIR]
 *
 * In process, on the stores in memory and the offline word-vector embedder; the build, the merges, the
 * reader and the query are the service's own (buildAndPublishIndex, mergeMemory, IndexCache,
 * retrieveFromMemory with topK 10 and facts, as GET /memory/ asks). SciFact abstracts packed into 200
 * files as `bench:latency` packs them make the memory (one bulk build: one segment); then `--singles`
 * one-abstract files are ingested one build each with no merge (one segment each); then the merges the
 * policy asks for are run. After each stage a warm container answers the SciFact claims (after a
 * discarded warm-up) and the table prints p50/p99 and their ratio to the merged figure, and the same of the
 * process CPU time a query takes (less shaken than wall time by other work on a busy machine). HTTP is left out:
 * `bench:latency` measures it; this bench isolates what the segments cost. With --cpu-prof DIR, each stage's
 * timed queries (not the builds) are profiled into DIR/stage-<n>.cpuprofile, to compare with
 * `npx tsx bench/support/profile-summary.ts DIR/stage-2.cpuprofile`.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { localConfig } from '../functions/config';
import { buildAndPublishIndex, type IndexDeps } from '../functions/core/ingest/memory-index';
import { mergeMemory } from '../functions/core/ingest/merge-memory';
import { objectKeys } from '../functions/core/object-keys';
import type { StoredChunk } from '../functions/core/stored-index/chunks';
import { readManifest } from '../functions/core/stored-index/manifest';
import { createAccount } from '../functions/core/use-cases/accounts';
import { createMemory } from '../functions/core/use-cases/memories';
import { retrieveFromMemory } from '../functions/core/use-cases/retrieve-memory';
import { chunkText, VECTOR_CHUNK_DEFAULTS } from '../functions/engine/text/chunker';
import { composeMemoryDeps } from '../functions/local/compose';
import { composeWorkerDeps } from '../functions/worker/deps';
import { benchCorpus, loadClaims } from './latency/corpus';
import { linkFile } from './support/in-process-stores';
import { machineFacts } from './support/report';

const { values } = parseArgs({
  options: {
    chunks: { type: 'string', default: '100000' },
    singles: { type: 'string', default: '100' },
    queries: { type: 'string', default: '500' },
    data: { type: 'string', default: resolve(import.meta.dirname, '../../shared/bench-data/scifact') },
    'cpu-prof': { type: 'string' },
  },
});
const CHUNK_SIZE = 200;
const WARMUP = 50;
const plan = { files: 200, chunkSize: CHUNK_SIZE, chunks: Number(values.chunks) };
const singles = Number(values.singles);
const queries = Number(values.queries);
const dataDir = resolve(values.data ?? '');

function chunksOf(fileId: string, text: string): StoredChunk[] {
  const options = { chunkSize: CHUNK_SIZE, overlapPercent: VECTOR_CHUNK_DEFAULTS.overlapPercent };
  return chunkText(text, options).map((chunk) => ({
    id: `${fileId}:${chunk.index}`,
    fileId,
    text: chunk.text,
    start: chunk.start,
    end: chunk.end,
    title: fileId,
  }));
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

async function main(): Promise<void> {
  const corpus = benchCorpus(dataDir, plan);
  const claims = loadClaims(dataDir);
  const config = localConfig({ KMEM_DATA_DIR: mkdtempSync(join(tmpdir(), 'kmem-segment-latency-')), AWS_REGION: 'local' });
  const base = composeMemoryDeps(config);
  const worker = composeWorkerDeps(base);
  const deps: IndexDeps = { ...worker, queue: { send: async () => undefined } }; // no merge runs until asked
  const accountId = (await createAccount(base, `segment-latency-${Date.now()}`)).account.id;
  const memory = await createMemory(base, accountId, { name: 'bench', memoryType: 'vector' });
  const link = (fileId: string) => linkFile(base.links, { accountId, memoryId: memory.id }, fileId);
  const bulk = new Map(corpus.files.map((file) => [file.name, chunksOf(file.name, file.text)]));
  for (const fileId of bulk.keys()) await link(fileId);
  let started = performance.now();
  await buildAndPublishIndex(deps, accountId, memory.id, {
    added: bulk,
    changes: ({ chunkCount, fileCount }) => ({ chunkCount, fileCount }),
  });
  progress(
    `bulk build of ${[...bulk.values()].reduce((n, c) => n + c.length, 0)} chunks: ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const rows: Array<{ stage: string; segments: number; p50: number; p99: number; cpu50: number; cpu99: number }> = [];
  const measure = async (stage: string) => {
    const current = (await base.memories.get(accountId, memory.id))!;
    const loadAt = performance.now(); // the warm container reads the version's new segments and composes it
    const chunks = (await base.indexes.load(current))?.retrieval.chunks.ids.length ?? 0;
    const loadMs = performance.now() - loadAt;
    const times: number[] = [];
    const cpu: number[] = [];
    const profiler = await stageProfiler(rows.length + 1);
    for (let i = 0; i < WARMUP + queries; i++) {
      const query = claims[i % claims.length] ?? '';
      if (i === WARMUP) await profiler?.start();
      const at = performance.now();
      const cpuAt = process.cpuUsage();
      await retrieveFromMemory(base, accountId, { memoryId: memory.id, query, topK: 10, facts: true, assisted: false });
      if (i >= WARMUP) times.push(performance.now() - at);
      const used = process.cpuUsage(cpuAt);
      if (i >= WARMUP) cpu.push((used.user + used.system) / 1000);
    }
    await profiler?.stop();
    times.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    const count = await segmentCount(current);
    rows.push({
      stage,
      segments: count,
      p50: percentile(times, 0.5),
      p99: percentile(times, 0.99),
      cpu50: percentile(cpu, 0.5),
      cpu99: percentile(cpu, 0.99),
    });
    progress(
      `${stage}: ${count} segments, ${chunks} chunks, version loaded in ${loadMs.toFixed(1)} ms, p50 ${percentile(times, 0.5).toFixed(1)} ms`,
    );
  };
  const segmentCount = async (current: { indexPrefix: string | null }) =>
    (await readManifest(base.objects, objectKeys.indexRoot(accountId, memory.id), current.indexPrefix ?? ''))?.segments.length ?? 0;

  await measure('one bulk build');
  started = performance.now();
  for (let i = 0; i < singles; i++) {
    const fileId = `single-${i}`;
    const text = (corpus.files[i % corpus.files.length]?.text ?? '').slice(0, 1_500); // about one abstract
    await link(fileId);
    await buildAndPublishIndex(deps, accountId, memory.id, {
      added: new Map([[fileId, chunksOf(fileId, text)]]),
      changes: ({ chunkCount, fileCount }) => ({ chunkCount, fileCount }),
    });
  }
  progress(`${singles} single-file builds: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await measure(`after ${singles} single-file ingestions, no merge`);
  started = performance.now();
  const merged = await mergeMemory(deps, { kind: 'memory.merge', accountId, memoryId: memory.id });
  progress(`${merged} merges: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await measure('after the merges');

  const reference = rows.at(-1);
  const lines = [
    '# bench:segment-latency (warm retrieveFromMemory, topK 10 with facts, in process)',
    ...machineFacts(),
    `- ${queries} SciFact claims per stage after ${WARMUP} discarded; chunkSize ${CHUNK_SIZE}`,
    '',
    '| stage | segments | p50 ms | p99 ms | p50 × merged | p99 × merged | CPU p50 ms | CPU p99 ms | CPU p50 × merged | CPU p99 × merged |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.stage} | ${row.segments} | ${row.p50.toFixed(1)} | ${row.p99.toFixed(1)} | ${(row.p50 / (reference?.p50 ?? 1)).toFixed(2)} | ${(row.p99 / (reference?.p99 ?? 1)).toFixed(2)} | ${row.cpu50.toFixed(1)} | ${row.cpu99.toFixed(1)} | ${(row.cpu50 / (reference?.cpu50 ?? 1)).toFixed(2)} | ${(row.cpu99 / (reference?.cpu99 ?? 1)).toFixed(2)} |`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** With --cpu-prof, a profiler of one stage's timed queries, written to DIR/stage-<n>.cpuprofile. */
async function stageProfiler(stage: number): Promise<{ start(): Promise<void>; stop(): Promise<void> } | undefined> {
  const dir = values['cpu-prof'];
  if (!dir) return undefined;
  mkdirSync(dir, { recursive: true });
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  return {
    start: () => session.post('Profiler.start'),
    stop: async () => {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(join(dir, `stage-${stage}.cpuprofile`), JSON.stringify(profile));
      session.disconnect();
    },
  };
}

function progress(line: string): void {
  process.stderr.write(`[segment-latency] ${line}\n`);
}

await main();
