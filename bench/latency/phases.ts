/**
 * The benchmark's phases, each on its own server process over one shared data dir:
 * - build: upload the files, process them, build one memory per acceleration setting (timed);
 * - cold: restart the server and time the first query of each memory: the first one the new process
 *   answers is a cold container (handler, word vectors, index all loaded on demand), the second a cold
 *   index version in a warm container (what a newly published version costs); the order alternates;
 * - warm: on the last restarted server, a discarded warm-up, sequential queries, then N concurrent clients.
 */
import { loadavg } from 'node:os';
import { apiClient } from '../support/api';
import { type ServerProcess, startServerProcess } from '../support/server-process';
import { type BuiltMemory, buildMemory, uploadFiles, waitProcessed } from './build';
import { type FilterPlan, filterPlans } from './filters';
import type { BenchCorpus } from './corpus';
import type { LatencyOptions } from './options';
import { QueryClient } from './query-client';
import { type InterleavedTopK, interleavedTopK } from './topk-interleaved';
import { type LatencySummary, summarise } from './stats';

export interface BuildResult {
  memories: BuiltMemory[];
  uploadMs: number;
  processMs: number;
}

export interface ColdSample {
  restart: number;
  /** ms to the server printing its URL (stores up, API listening). */
  startMs: number;
  /** First query of the process (cold container) or first of this memory in a warm one. */
  kind: 'container' | 'index';
  ms: number;
  /** CPU the server process (all its threads: API, stores, worker) used across the query, in ms (Linux); less swayed by other work on the machine than `ms`. */
  cpuMs?: number;
  /** Set when the query failed (e.g. the 29 s function timeout on a busy machine); `ms` is then the time to the failure. */
  error?: string;
}

export interface WarmResult {
  topK: number;
  sequential: LatencySummary;
  concurrent: LatencySummary;
  /** Server CPU per sequential query in ms (Linux), undefined elsewhere. */
  serverCpuMsPerQuery?: number;
  /** The machine's 1-minute load average after the runs: other work on the machine shows in the tails. */
  loadAverage: number;
  /**
   * With --filter: the sequential queries again, unfiltered (`filterBaseline`) and under each filter,
   * interleaved query by query in one run, so load on the machine weighs on them alike.
   */
  filtered: Array<{ plan: FilterPlan; sequential: LatencySummary; firstMs: number; serverCpuMsPerQuery?: number }>;
  filterBaseline?: { sequential: LatencySummary; serverCpuMsPerQuery?: number };
}

export interface MemoryRun {
  memory: BuiltMemory;
  cold: ColdSample[];
  /** One warm result per `--top-k` value, in the order given. */
  warm: WarmResult[];
  /** With several `--top-k` values: each claim asked at every one in rotating order (topk-interleaved.ts). */
  interleaved?: InterleavedTopK[];
  /** The warm server's resident memory after this memory's warm runs (Linux). */
  resident?: { now: number; peak: number };
}

type Progress = (line: string) => void;

export async function buildPhase(options: LatencyOptions, dataDir: string, corpus: BenchCorpus, progress: Progress): Promise<BuildResult> {
  const server = await startServerProcess({ dataDir });
  try {
    const api = apiClient(server.info.url, server.info.apiKey);
    let started = performance.now();
    const fileIds = await uploadFiles(api, server.info, corpus.files);
    const uploadMs = performance.now() - started;
    progress(`uploaded ${fileIds.length} files in ${(uploadMs / 1000).toFixed(1)} s; processing…`);
    started = performance.now();
    await waitProcessed(api, fileIds);
    const processMs = performance.now() - started;
    progress(`processed in ${(processMs / 1000).toFixed(1)} s`);
    const memories: BuiltMemory[] = [];
    for (const acceleration of [false, true].filter((on) => options.only === undefined || options.only === (on ? 'on' : 'off'))) {
      const label = `acceleration ${acceleration ? 'on' : 'off'}`;
      progress(`building the memory with ${label}…`);
      const built = await buildMemory(api, { label, acceleration, chunkSize: options.chunkSize, fileIds });
      progress(`${label}: ${built.chunkCount} chunks, ready ${(built.buildMs / 1000).toFixed(1)} s after start-ingestion`);
      memories.push(built);
    }
    return { memories, uploadMs, processMs };
  } finally {
    await server.stop();
  }
}

/** Restarts the server `options.restarts` times for cold samples; the last server also serves the warm runs. */
export async function queryPhase(
  options: LatencyOptions,
  dataDir: string,
  memories: readonly BuiltMemory[],
  claims: readonly string[],
  progress: Progress,
): Promise<MemoryRun[]> {
  const runs: MemoryRun[] = memories.map((memory) => ({ memory, cold: [], warm: [] }));
  for (let restart = 1; restart <= options.restarts; restart++) {
    const last = restart === options.restarts;
    const started = performance.now();
    const server = await startServerProcess({
      dataDir,
      ...(last && options.cpuProfileDir ? { cpuProfileDir: options.cpuProfileDir } : {}),
    });
    const startMs = performance.now() - started;
    try {
      const order = restart % 2 === 1 ? runs : [...runs].reverse();
      for (const [position, run] of order.entries()) {
        const client = new QueryClient({ ...server.info, memoryId: run.memory.memoryId });
        const sent = performance.now();
        const cpuBefore = server.cpuMs();
        const sample = await client.time(claims[(restart * 7919 + position) % claims.length]!).then(
          (ms) => ({ ms, ...cpuAcross(cpuBefore, server.cpuMs()) }),
          (error: unknown) => ({ ms: performance.now() - sent, error: error instanceof Error ? error.message : String(error) }),
        );
        client.close();
        run.cold.push({ restart, startMs, kind: position === 0 ? 'container' : 'index', ...sample });
        const outcome =
          'error' in sample ? `failed after ${sample.ms.toFixed(0)} ms (${sample.error.slice(0, 160)})` : `${sample.ms.toFixed(0)} ms`;
        progress(`restart ${restart}: ${run.memory.label} first query ${outcome} (${position === 0 ? 'cold container' : 'cold index'})`);
      }
      if (last) {
        const plans = options.filter ? await filterPlans(apiClient(server.info.url, server.info.apiKey)) : [];
        for (const run of runs) {
          for (const [i, topK] of options.topKs.entries())
            run.warm.push(await warmRuns(options, server, run.memory, claims, { topK, plans: i === 0 ? plans : [] }, progress));
          if (options.topKs.length < 2) continue;
          progress(`${run.memory.label}: ${options.queries} claims at topK ${options.topKs.join(' and ')}, interleaved…`);
          run.interleaved = await interleavedTopK(options, server, run.memory, claims, options.warmup);
        }
        for (const run of runs) {
          const resident = server.residentMiB();
          if (resident) run.resident = resident;
        }
      }
    } finally {
      await server.stop();
    }
  }
  return runs;
}

/** The CPU used between two readings, when both were taken. */
const cpuAcross = (before: number | undefined, after: number | undefined): { cpuMs?: number } =>
  before !== undefined && after !== undefined ? { cpuMs: after - before } : {};

async function warmRuns(
  options: LatencyOptions,
  server: ServerProcess,
  memory: BuiltMemory,
  claims: readonly string[],
  { topK, plans }: { topK: number; plans: readonly FilterPlan[] },
  progress: Progress,
): Promise<WarmResult> {
  const client = new QueryClient({ ...server.info, memoryId: memory.memoryId, topK });
  try {
    const cycle = (from: number, count: number) => Array.from({ length: count }, (_, i) => claims[(from + i) % claims.length]!);
    await client.sequential(cycle(0, options.warmup));
    progress(`${memory.label}, topK ${topK}: ${options.queries} sequential queries…`);
    const cpuBefore = server.cpuMs();
    const sequentialRun = await client.sequential(cycle(options.warmup, options.queries));
    const cpuAfter = server.cpuMs();
    progress(`${memory.label}: ${options.connections} concurrent clients for ${options.durationSeconds} s…`);
    const concurrentRun = await client.concurrent(
      cycle(options.warmup + options.queries, claims.length),
      options.connections,
      options.durationSeconds,
    );
    const interleaved = plans.length > 0 ? await filterRuns(options, server, memory, { topK, plans, cycle }, progress) : undefined;
    return {
      topK,
      sequential: summarise(sequentialRun),
      concurrent: summarise(concurrentRun),
      filtered: interleaved?.filtered ?? [],
      ...(interleaved ? { filterBaseline: interleaved.baseline } : {}),
      loadAverage: loadavg()[0] ?? Number.NaN,
      ...(cpuBefore !== undefined && cpuAfter !== undefined ? { serverCpuMsPerQuery: (cpuAfter - cpuBefore) / options.queries } : {}),
    };
  } finally {
    client.close();
  }
}

/**
 * The filtered runs: each filter's first query (the allowed set worked out), a warm-up, then the
 * sequential queries with no filter and under each filter interleaved: query i goes to every variant in
 * turn, starting with a different one each time, so a burst of load on the machine hits all alike.
 */
async function filterRuns(
  options: LatencyOptions,
  server: ServerProcess,
  memory: BuiltMemory,
  { topK, plans, cycle }: { topK: number; plans: readonly FilterPlan[]; cycle: (from: number, count: number) => string[] },
  progress: Progress,
): Promise<{ baseline: NonNullable<WarmResult['filterBaseline']>; filtered: WarmResult['filtered'] }> {
  const target = { ...server.info, memoryId: memory.memoryId, topK };
  const clients = [new QueryClient(target), ...plans.map((plan) => new QueryClient({ ...target, filter: plan.filter }))];
  try {
    const firstMs: number[] = [];
    for (const client of clients.slice(1)) firstMs.push(await client.time(cycle(options.warmup + options.queries, 1)[0] ?? ''));
    for (const client of clients) await client.sequential(cycle(0, options.warmup));
    progress(`${memory.label}: ${options.queries} sequential queries, unfiltered and ${plans.length} filters interleaved…`);
    const samples: number[][] = clients.map(() => []);
    // the server's CPU time across each query, summed per variant (clock ticks: exact only summed over many queries)
    const cpu = clients.map(() => 0);
    const started = performance.now();
    for (const [i, query] of cycle(options.warmup, options.queries).entries()) {
      for (let j = 0; j < clients.length; j++) {
        const which = (i + j) % clients.length;
        const cpuBefore = server.cpuMs();
        samples[which]?.push(await (clients[which] as QueryClient).time(query));
        const cpuAfter = server.cpuMs();
        if (cpuBefore !== undefined && cpuAfter !== undefined) cpu[which] = (cpu[which] ?? 0) + cpuAfter - cpuBefore;
      }
    }
    const wallMs = (performance.now() - started) / clients.length;
    const runs = samples.map((run, which) => ({
      sequential: summarise({ samples: run, wallMs }),
      ...(server.cpuMs() !== undefined ? { serverCpuMsPerQuery: (cpu[which] ?? 0) / options.queries } : {}),
    }));
    const [baseline, ...filtered] = runs;
    return {
      baseline: baseline as NonNullable<WarmResult['filterBaseline']>,
      filtered: plans.map((plan, i) => ({
        plan,
        ...(filtered[i] as NonNullable<WarmResult['filterBaseline']>),
        firstMs: firstMs[i] ?? Number.NaN,
      })),
    };
  } finally {
    for (const client of clients) client.close();
  }
}
