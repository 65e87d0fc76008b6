/**
 * What a never-seen query text costs beyond a repeated one, in process: the retrieval index of a saved
 * `bench:latency` build (its `retrieval.idx`, read from the s3rver directory) answers SciFact claims as
 * GET /memory/ ranks them (retrieveFromIndex, topK 10, facts=true, the offline word-vector embedder), each
 * claim first new and then once more at once. Prints CPU (process, all threads: GC helpers included), wall
 * time and GC pause per query, median and mean, for new and repeated texts.
 *
 *   npx tsx bench/query-text-cost.ts --reuse /work/lat-querytext [--queries 500 --warm 50 --top-k 10]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { loadWordVectorEmbedder } from '../functions/adapters/embeddings/word-vector-loader';
import { retrieveFromIndex } from '../functions/core/use-cases/retrieve-memory';
import { deserializeRetrievalIndex } from '../functions/engine';
import { loadClaims } from './latency/corpus';

const { values } = parseArgs({
  options: {
    reuse: { type: 'string' },
    data: { type: 'string', default: '../shared/bench-data/scifact' },
    queries: { type: 'string', default: '500' },
    warm: { type: 'string', default: '50' },
    'top-k': { type: 'string', default: '10' },
    /** Ask each claim once only (to profile new texts alone). */
    'new-only': { type: 'boolean', default: false },
    /** Every claim once, then all again, then the claims not asked yet (bench:latency's order). */
    passes: { type: 'boolean', default: false },
  },
});

/** The largest `retrieval.idx` under the saved build's s3rver directory (the 100k-chunk memory's segment). */
function findIndexFile(root: string): string {
  let best: { path: string; size: number } | undefined;
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name === 'retrieval.idx._S3rver_object') {
        const size = statSync(path).size;
        if (!best || size > best.size) best = { path, size };
      }
    }
  };
  walk(join(root, 's3'));
  if (!best) throw new Error(`no retrieval.idx under ${root}/s3`);
  return best.path;
}

interface Sample {
  cpuMs: number;
  wallMs: number;
  gcMs: number;
}

let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ['gc'] });

async function timed(run: () => Promise<unknown>): Promise<Sample> {
  const gcBefore = gcMs;
  const cpu = process.cpuUsage();
  const wall = performance.now();
  await run();
  const wallMs = performance.now() - wall;
  const used = process.cpuUsage(cpu);
  // gc entries are delivered asynchronously: give the observer its turn
  await new Promise((resolve) => setImmediate(resolve));
  return { cpuMs: (used.user + used.system) / 1000, wallMs, gcMs: gcMs - gcBefore };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function mean(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
}

function row(name: string, samples: Sample[]): string {
  const of = (key: keyof Sample) => samples.map((sample) => sample[key]);
  const cells = [median(of('wallMs')), mean(of('wallMs')), median(of('cpuMs')), mean(of('cpuMs')), mean(of('gcMs'))];
  return `| ${name} | ${samples.length} | ${cells.map((cell) => cell.toFixed(2)).join(' | ')} |`;
}

async function main(): Promise<void> {
  if (!values.reuse) throw new Error('--reuse DIR (a saved bench:latency build) is required');
  const retrieval = deserializeRetrievalIndex(readFileSync(findIndexFile(values.reuse)));
  const embedder = loadWordVectorEmbedder();
  const claims = loadClaims(values.data);
  const warm = Number(values.warm);
  const count = Math.min(Number(values.queries), claims.length - warm);
  const topK = Number(values['top-k']);
  const ask = (query: string) => () =>
    retrieveFromIndex({ retrieval, graph: null }, { query, topK, facts: true, assisted: false }, { embedder });
  for (const claim of claims.slice(0, warm)) await ask(claim)();
  const asked = claims.slice(warm, warm + count);
  const rows: string[] = [];
  if (values.passes) {
    // as bench:latency runs them: every claim once, then all again, then the claims never asked
    const pass = async (texts: readonly string[]) => {
      const samples: Sample[] = [];
      for (const text of texts) samples.push(await timed(ask(text)));
      return samples;
    };
    rows.push(row('new (first pass)', await pass(asked)), row('repeated (second pass)', await pass(asked)));
    const unseen = claims.slice(warm + count);
    if (unseen.length > 0) rows.push(row('new (after both passes)', await pass(unseen)));
  } else {
    const first: Sample[] = [];
    const again: Sample[] = [];
    for (const claim of asked) {
      first.push(await timed(ask(claim)));
      if (!values['new-only']) again.push(await timed(ask(claim)));
    }
    rows.push(row('new', first), ...(again.length > 0 ? [row('repeated at once', again)] : []));
  }
  process.stdout.write(
    [
      `${retrieval.chunks.ids.length} chunks, topK ${topK}, facts=true; ${values.passes ? 'passes over the claims' : 'each claim asked new, then again at once'}`,
      '',
      '| query text | queries | wall p50 ms | wall mean ms | CPU p50 ms | CPU mean ms | GC pause mean ms |',
      '|---|---:|---:|---:|---:|---:|---:|',
      ...rows,
    ].join('\n') + '\n',
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
