/** The latency benchmark's printed report: machine facts, the data, build times, and a table per memory. */
import { cpus } from 'node:os';
import { machineFacts } from '../support/report';
import type { BenchCorpus } from './corpus';
import type { LatencyOptions } from './options';
import type { BuildResult, ColdSample, MemoryRun, WarmResult } from './phases';
import { type LatencySummary, median } from './stats';

/** The target of the issue (#23): at 100,000 chunks, topK=10, facts=true, warm, over HTTP. */
const TARGET = { p50Ms: 10, p99Ms: 25 } as const;

export function latencyReport(
  options: LatencyOptions,
  corpus: BenchCorpus,
  build: BuildResult & { reused: boolean },
  runs: readonly MemoryRun[],
): string[] {
  return [
    '## kmem retrieval latency (GET /memory/, local runtime, over HTTP)',
    '',
    ...machineFacts(),
    `- command: \`${commandLine()}\``,
    `- data: ${corpus.abstracts.toLocaleString('en')} SciFact abstracts × ${corpus.passes.toFixed(1)} passes in ${corpus.files.length} text files ` +
      `(${(corpus.characters / 1e6).toFixed(1)} M characters), chunkSize ${options.chunkSize}, overlap 10% → ${corpus.expectedChunks.toLocaleString('en')} chunks expected`,
    `- queries: SciFact claims, \`topK=${options.topKs.join('|')}&facts=true\`; warm = ${options.queries} sequential after ${options.warmup} discarded, then ` +
      `${options.connections} closed-loop clients for ${options.durationSeconds} s; server in its own process`,
    `- upload + create ${seconds(build.uploadMs)} s, processing ${seconds(build.processMs)} s (${corpus.files.length} files, once for both memories)` +
      (build.reused ? `; build reused from ${options.reuseDir} (times as measured when it was made)` : ''),
    '',
    '| memory | chunks | add-files s | build s (start-ingestion → ready) |',
    '|---|---:|---:|---:|',
    ...runs.map(
      ({ memory }) =>
        `| ${memory.label} | ${memory.chunkCount.toLocaleString('en')} | ${seconds(memory.addFilesMs)} | ${seconds(memory.buildMs)} |`,
    ),
    '',
    ...runs.flatMap((run) => memoryTable(run)),
    ...topKTable(runs),
    `Server restarts (process start to API listening): ${restartTimes(runs)} s.`,
    ...residentLine(runs),
    '',
    'cold container: the first request a freshly started server process answers (index and chunk records loaded on demand;',
    'handler modules and the word vectors are loaded at start, and the server is ready once its worker thread has loaded, as',
    'on AWS no worker shares the API function), as a Lambda cold start; cold index: the first query of this memory on a server that has already',
    'answered the other memory, i.e. what the first query after a new index version costs in a warm container. Their server CPU',
    'is the median CPU the server process (all threads: API, stores, worker) used across the query (10 ms ticks).',
    `Target (warm, ≥ 100,000 chunks): p50 < ${TARGET.p50Ms} ms and p99 < ${TARGET.p99Ms} ms, checked on the sequential run.`,
  ];
}

/** The warm server's memory: one process holding the API, the local stores and the worker thread. */
function residentLine(runs: readonly MemoryRun[]): string[] {
  const resident = runs.find((run) => run.resident)?.resident;
  if (!resident) return [];
  return [
    `Warm server resident memory after the warm runs: ${resident.now.toFixed(0)} MiB (peak ${resident.peak.toFixed(0)} MiB), ` +
      'one process holding the API, the local stores (dynalite, s3rver) and the worker thread.',
  ];
}

function memoryTable({ memory, cold, warm: warmRuns }: MemoryRun): string[] {
  const warm = warmRuns[0];
  const rows = warmRuns.flatMap((run) => {
    const label = warmRuns.length > 1 ? `topK ${run.topK}, ` : '';
    return [
      row(`${label}warm, sequential`, run.sequential, run.serverCpuMsPerQuery),
      row(`${label}warm, concurrent`, run.concurrent),
      ...(run.filterBaseline
        ? [row(`${label}warm, sequential, interleaved: no filter`, run.filterBaseline.sequential, run.filterBaseline.serverCpuMsPerQuery)]
        : []),
      ...run.filtered.map(({ plan, sequential, firstMs, serverCpuMsPerQuery }) =>
        row(
          `${label}warm, sequential, interleaved: filter ${plan.name} (first query ${firstMs.toFixed(0)} ms)`,
          sequential,
          serverCpuMsPerQuery,
        ),
      ),
    ];
  });
  return [
    `### ${memory.label} (${memory.chunkCount.toLocaleString('en')} chunks)`,
    '',
    '| run | queries | p50 ms | p95 ms | p99 ms | max ms | req/s | server CPU ms/query |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    ...coldRow(
      'cold container (first query after restart)',
      cold.filter((sample) => sample.kind === 'container'),
    ),
    ...coldRow(
      'cold index (first query of the version, warm container)',
      cold.filter((sample) => sample.kind === 'index'),
    ),
    '',
    ...(warm
      ? [`machine load during the warm runs (1-minute load average, ${cpus().length} cpus): ${warm.loadAverage.toFixed(1)}`, '']
      : []),
    `verdict: ${verdict(memory.chunkCount, warm?.sequential)}`,
    ...(warm?.filtered.length ? ['', filterVerdict(warm.filterBaseline?.sequential ?? warm.sequential, warm.filtered)] : []),
    '',
  ];
}

/** The issue's target for filters: p50 and p99 within 1.5x of the unfiltered queries interleaved with them. */
function filterVerdict(unfiltered: LatencySummary, filtered: WarmResult['filtered']): string {
  const lines = filtered.map(({ plan, sequential }) => {
    const p50 = sequential.p50 / unfiltered.p50;
    const p99 = sequential.p99 / unfiltered.p99;
    return `${plan.name}: p50 ${p50.toFixed(2)}x, p99 ${p99.toFixed(2)}x (${p50 <= 1.5 && p99 <= 1.5 ? 'PASS' : 'FAIL'})`;
  });
  return `filters against unfiltered (target ≤ 1.5x): ${lines.join('; ')}`;
}

/** Warm sequential latency of each `--top-k` value side by side, against the first (the issue's target: topK 100 ≤ 2× topK 10). */
function topKTable(runs: readonly MemoryRun[]): string[] {
  if (runs.every((run) => run.warm.length < 2)) return [];
  const lines = [
    '### topK side by side (warm, sequential)',
    '',
    '| memory | topK | p50 ms | p99 ms | server CPU ms/query | p50 × first |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const { memory, warm } of runs) {
    const base = warm[0]?.sequential.p50 ?? Number.NaN;
    for (const run of warm) {
      const cpu = run.serverCpuMsPerQuery === undefined ? '' : run.serverCpuMsPerQuery.toFixed(1);
      lines.push(
        `| ${memory.label} | ${run.topK} | ${run.sequential.p50.toFixed(1)} | ${run.sequential.p99.toFixed(1)} | ${cpu} | ${(run.sequential.p50 / base).toFixed(2)} |`,
      );
    }
  }
  return [...lines, '', ...interleavedTable(runs)];
}

/** The same topK values with each claim asked at every one in rotating order: no value finds the caches warmed by another. */
function interleavedTable(runs: readonly MemoryRun[]): string[] {
  if (runs.every((run) => !run.interleaved)) return [];
  const lines = [
    '### topK interleaved (warm, sequential: each claim at every topK back to back, the first in turn rotating)',
    '',
    '| memory | topK | p50 ms | p99 ms | server CPU ms/query | p50 × first | p99 × first |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { memory, interleaved } of runs) {
    const base = interleaved?.[0]?.sequential;
    for (const run of interleaved ?? []) {
      const cpu = run.serverCpuMsPerQuery === undefined ? '' : run.serverCpuMsPerQuery.toFixed(1);
      const { p50, p99 } = run.sequential;
      const ratios = base ? `${(p50 / base.p50).toFixed(2)} | ${(p99 / base.p99).toFixed(2)}` : ' | ';
      lines.push(`| ${memory.label} | ${run.topK} | ${p50.toFixed(1)} | ${p99.toFixed(1)} | ${cpu} | ${ratios} |`);
    }
  }
  return [...lines, 'target (#28): topK 100 p50 at most 2× topK 10 over HTTP.', ''];
}

function row(name: string, summary: LatencySummary, cpuMs?: number): string {
  const cells = [summary.count, summary.p50, summary.p95, summary.p99, summary.max].map((value, i) =>
    i === 0 ? String(value) : value.toFixed(1),
  );
  return `| ${name} | ${cells.join(' | ')} | ${summary.perSecond.toFixed(0)} | ${cpuMs === undefined ? '' : cpuMs.toFixed(1)} |`;
}

/** Cold samples are few: the median and max of the answered ones, and every sample (in restart order, failures named) in the row's name. */
function coldRow(name: string, samples: readonly ColdSample[]): string[] {
  if (samples.length === 0) return [];
  const listed = samples.map((sample) => (sample.error ? `failed after ${sample.ms.toFixed(0)}` : sample.ms.toFixed(0))).join(', ');
  const times = samples.filter((sample) => !sample.error).map((sample) => sample.ms);
  const [mid, most] = times.length > 0 ? [median(times).toFixed(0), Math.max(...times).toFixed(0)] : ['', ''];
  const cpu = samples.flatMap((sample) => (sample.error || sample.cpuMs === undefined ? [] : [sample.cpuMs]));
  return [`| ${name} (${listed}) | ${times.length} | ${mid} | | | ${most} | | ${cpu.length > 0 ? median(cpu).toFixed(0) : ''} |`];
}

function verdict(chunks: number, warm: LatencySummary | undefined): string {
  if (!warm) return 'not measured';
  const pass = warm.p50 < TARGET.p50Ms && warm.p99 < TARGET.p99Ms && chunks >= 100_000;
  return `${pass ? 'PASS' : 'FAIL'} (p50 ${warm.p50.toFixed(1)} ms, p99 ${warm.p99.toFixed(1)} ms at ${chunks.toLocaleString('en')} chunks)`;
}

function restartTimes(runs: readonly MemoryRun[]): string {
  const byRestart = new Map((runs[0]?.cold ?? []).map((sample) => [sample.restart, sample.startMs] as const));
  return [...byRestart.values()].map(seconds).join(', ');
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}

function commandLine(argv: readonly string[] = process.argv.slice(2)): string {
  const args = argv.map((arg) => (/^[\w./:=@-]+$/.test(arg) ? arg : JSON.stringify(arg))).join(' ');
  if (process.env.npm_lifecycle_event === 'bench:latency') return `npm run bench:latency${args ? ` -- ${args}` : ''}`;
  return `npx tsx bench/latency.ts${args ? ` ${args}` : ''}`;
}
