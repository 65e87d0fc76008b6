/**
 * What a never-seen query text costs beyond a repeated one, in process: the retrieval index of a saved
 * `bench:latency` build (its `retrieval.idx`, read from the s3rver directory) answers SciFact claims as
 * GET /memory/ ranks them (retrieveFromIndex, topK 10, facts=true, the offline word-vector embedder), each
 * claim first new and then once more at once. Prints CPU (process, all threads: GC helpers included), wall
 * time and GC pause per query, median and mean, for new and repeated texts. With --passes, as bench:latency
 * asks them: every claim once, all again, then the claims not asked yet. With --against DIR (another
 * checkout of kmem, e.g. /work/main), the same index is loaded by that checkout's code too and both answer
 * every claim, new and repeated, in alternating order: an A/B at the same machine load. With --curve
 * (and --warm 0), each claim once, the rows by the claim's index in the process (0-9, 10-49, …): what the
 * first queries of a fresh container cost more than later ones.
 *
 *   npx tsx bench/query-text-cost.ts --reuse DIR [--data DIR --queries 500 --warm 50 --top-k 10 --passes | --against DIR | --curve]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
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
    /** Another checkout whose code answers too, alternating with this one's. */
    against: { type: 'string' },
    /** Every claim once, then all again, then the claims not asked yet (bench:latency's order). */
    passes: { type: 'boolean', default: false },
    /** The warm-up curve: CPU per new claim by its index in the process (use with --warm 0). */
    curve: { type: 'boolean', default: false },
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

type Ask = (query: string) => () => Promise<unknown>;

/** A checkout's retrieval over the saved index, its own modules and caches (this one's when `root` is absent). */
async function asker(root: string | undefined, indexBytes: Uint8Array, topK: number): Promise<{ ask: Ask; chunks: number }> {
  const from = (path: string) => (root ? join(resolve(root), path) : new URL(`../${path}`, import.meta.url).href);
  const engine = (await import(from('functions/engine/index.ts'))) as typeof import('../functions/engine');
  const loader = (await import(
    from('functions/adapters/embeddings/word-vector-loader.ts')
  )) as typeof import('../functions/adapters/embeddings/word-vector-loader');
  const useCase = (await import(
    from('functions/core/use-cases/retrieve-memory.ts')
  )) as typeof import('../functions/core/use-cases/retrieve-memory');
  const retrieval = engine.deserializeRetrievalIndex(indexBytes);
  const embedder = loader.loadWordVectorEmbedder();
  const ask: Ask = (query) => () =>
    useCase.retrieveFromIndex({ retrieval, graph: null }, { query, topK, facts: true, assisted: false }, { embedder });
  return { ask, chunks: retrieval.chunks.ids.length };
}

async function main(): Promise<void> {
  if (!values.reuse) throw new Error('--reuse DIR (a saved bench:latency build) is required');
  const indexBytes = readFileSync(findIndexFile(values.reuse));
  const claims = loadClaims(values.data);
  const warm = Number(values.warm);
  const count = Math.min(Number(values.queries), claims.length - warm);
  const topK = Number(values['top-k']);
  const own = await asker(undefined, indexBytes, topK);
  const other = values.against ? await asker(values.against, indexBytes, topK) : undefined;
  for (const claim of claims.slice(0, warm)) {
    await own.ask(claim)();
    if (other) await other.ask(claim)();
  }
  const asked = claims.slice(warm, warm + count);
  const rows = other
    ? await againstRows(own.ask, other.ask, asked)
    : values.curve
      ? await curveRows(own.ask, asked)
      : values.passes
        ? await passRows(own.ask, asked, claims.slice(warm + count))
        : await pairRows(own.ask, asked);
  const how = other
    ? `this checkout against ${values.against}, alternating`
    : values.curve
      ? `each claim once, by its index in the process (after ${warm} warm-up claims)`
      : values.passes
        ? 'passes over the claims'
        : 'each claim asked new, then again at once';
  process.stdout.write(
    [
      `${own.chunks} chunks, topK ${topK}, facts=true; ${how}`,
      '',
      '| query text | queries | wall p50 ms | wall mean ms | CPU p50 ms | CPU mean ms | GC pause mean ms |',
      '|---|---:|---:|---:|---:|---:|---:|',
      ...rows,
    ].join('\n') + '\n',
  );
}

/** Each claim new, then at once again (`--new-only`: new alone). */
async function pairRows(ask: Ask, asked: readonly string[]): Promise<string[]> {
  const first: Sample[] = [];
  const again: Sample[] = [];
  for (const claim of asked) {
    first.push(await timed(ask(claim)));
    if (!values['new-only']) again.push(await timed(ask(claim)));
  }
  return [row('new', first), ...(again.length > 0 ? [row('repeated at once', again)] : [])];
}

/** Each claim once, the samples grouped by the claim's index in the process. */
async function curveRows(ask: Ask, asked: readonly string[]): Promise<string[]> {
  const samples: Sample[] = [];
  for (const claim of asked) samples.push(await timed(ask(claim)));
  const edges = [0, 1, 10, 50, 100, 200, 300, 400, 500, 700, 1000].filter((edge) => edge < samples.length);
  return edges.map((from, i) => {
    const to = Math.min(edges[i + 1] ?? samples.length, samples.length);
    return row(to - from === 1 ? `query ${from}` : `queries ${from}-${to - 1}`, samples.slice(from, to));
  });
}

/** As bench:latency asks them: every claim once, then all again, then the claims never asked. */
async function passRows(ask: Ask, asked: readonly string[], unseen: readonly string[]): Promise<string[]> {
  const pass = async (texts: readonly string[]) => {
    const samples: Sample[] = [];
    for (const text of texts) samples.push(await timed(ask(text)));
    return samples;
  };
  const rows = [row('new (first pass)', await pass(asked)), row('repeated (second pass)', await pass(asked))];
  return unseen.length > 0 ? [...rows, row('new (after both passes)', await pass(unseen))] : rows;
}

/** Both checkouts answer each claim new, then again, the one going first alternating claim by claim. */
async function againstRows(own: Ask, other: Ask, asked: readonly string[]): Promise<string[]> {
  const samples = { own: { first: [] as Sample[], again: [] as Sample[] }, other: { first: [] as Sample[], again: [] as Sample[] } };
  for (const [position, claim] of asked.entries()) {
    const order = position % 2 === 0 ? (['own', 'other'] as const) : (['other', 'own'] as const);
    for (const who of order) samples[who].first.push(await timed((who === 'own' ? own : other)(claim)));
    for (const who of order) samples[who].again.push(await timed((who === 'own' ? own : other)(claim)));
  }
  return [
    row('new, this checkout', samples.own.first),
    row(`new, ${values.against}`, samples.other.first),
    row('repeated at once, this checkout', samples.own.again),
    row(`repeated at once, ${values.against}`, samples.other.again),
  ];
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
