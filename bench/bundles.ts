/**
 * Bundle bench: builds every function with the deployed esbuild settings (lib/constructs/bundling.ts)
 * and prints, per function, the bundle size and the cold import time (median of fresh `node` processes
 * importing the bundle, as a Lambda cold start does before the first invocation).
 *
 *   npx tsx bench/bundles.ts [--runs 5] [--no-source-maps] [--compare-external]
 *
 * Imports run with `NODE_OPTIONS=--enable-source-maps`, as deployed functions do; `--no-source-maps`
 * measures a stage with `sourceMapStackTraces: false`.
 * `--compare-external` also builds each function with `@aws-sdk/*` left external (resolved from
 * node_modules, as the Lambda runtime would resolve its own copy) and prints that variant's numbers.
 * Flags bundles over 2 MB and imports over 300 ms. Exits 0 whatever the numbers; non-zero only when a
 * build or an import fails.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { groups } from '../functions/catalog';
import {
  BUNDLE_SIZE_LIMIT,
  esbuildOptions,
  SOURCE_MAP_NODE_OPTIONS,
  WORKER_BUNDLE_SIZE_LIMIT,
  WORKER_RUNTIME_MODULES,
} from '../lib/constructs/bundling';
import { type FunctionName, handlerEntry, REPO_ROOT } from '../lib/paths';

const IMPORT_LIMIT_MS = 300;
const OUT_DIR = join(REPO_ROOT, '.bench-out', 'bundles');

/** What a Lambda container's environment holds when the handler module is imported. */
const LAMBDA_LIKE_ENV: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  AWS_REGION: 'us-east-1',
  AWS_LAMBDA_FUNCTION_NAME: 'kmem-bench',
  POWERTOOLS_SERVICE_NAME: 'kmem-bench',
  POWERTOOLS_METRICS_NAMESPACE: 'kmem',
  POWERTOOLS_LOG_LEVEL: 'INFO',
  KMEM_STAGE: 'bench',
  KMEM_TABLE_NAME: 'kmem-bench',
  KMEM_BUCKET_NAME: 'kmem-bench',
  KMEM_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/kmem-bench',
};

interface BenchOptions {
  runs: number;
  sourceMaps: boolean;
  compareExternal: boolean;
}

/** `bundled`: as deployed; `external`: `@aws-sdk/*` left to the runtime (for comparison). */
type VariantName = 'bundled' | 'external';

interface Variant {
  sizeBytes: number;
  importMs: number;
}

interface Row {
  name: FunctionName;
  bundled: Variant;
  external?: Variant;
}

async function buildBundle(name: FunctionName, variant: VariantName): Promise<string> {
  const outfile = join(OUT_DIR, variant, name, 'index.mjs');
  const options = esbuildOptions(handlerEntry(name), outfile, name === 'worker' ? WORKER_RUNTIME_MODULES : []);
  const external = variant === 'external' ? [...(options.external ?? []), '@aws-sdk/*'] : options.external;
  await build({ ...options, external });
  return outfile;
}

/** Milliseconds one fresh `node` process spends in `await import(bundle)`. */
function importOnce(file: string, env: NodeJS.ProcessEnv): number {
  const url = JSON.stringify(pathToFileURL(file).href);
  const script = `const t = performance.now(); await import(${url}); console.log(performance.now() - t);`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8' });
  const ms = Number(result.stdout.trim());
  if (result.status !== 0 || !Number.isFinite(ms)) {
    throw new Error(`importing ${file} failed (exit ${result.status}): ${result.stderr.trim()}`);
  }
  return ms;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

async function measure(name: FunctionName, variant: VariantName, options: BenchOptions): Promise<Variant> {
  const file = await buildBundle(name, variant);
  const env = { ...LAMBDA_LIKE_ENV, ...(options.sourceMaps ? { NODE_OPTIONS: SOURCE_MAP_NODE_OPTIONS } : {}) };
  const times = Array.from({ length: options.runs }, () => importOnce(file, env));
  return { sizeBytes: statSync(file).size, importMs: median(times) };
}

/** The API functions must stay under 2 MB; the worker (extractors, tokenizer; no request path) under its own cap. */
function flags(name: FunctionName, variant: Variant): string {
  const limit = name === 'worker' ? WORKER_BUNDLE_SIZE_LIMIT : BUNDLE_SIZE_LIMIT;
  const notes = [
    variant.sizeBytes > limit ? `OVER ${limit / 1048576} MB` : '',
    variant.importMs > IMPORT_LIMIT_MS ? 'OVER 300 ms' : '',
  ].filter(Boolean);
  return notes.length ? notes.join(', ') : 'ok';
}

function printTable(rows: Row[], runs: number): void {
  const compare = rows.some((row) => row.external);
  const head = ['function', 'bundle (KB)', `cold import (ms, median of ${runs})`, 'flags'];
  if (compare) head.push('SDK external: bundle (KB)', 'SDK external: cold import (ms)');
  const lines = rows.map((row) => {
    const cells = [row.name, kb(row.bundled.sizeBytes), row.bundled.importMs.toFixed(1), flags(row.name, row.bundled)];
    if (row.external) cells.push(kb(row.external.sizeBytes), row.external.importMs.toFixed(1));
    return `| ${cells.join(' | ')} |`;
  });
  console.log([`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...lines].join('\n'));
}

const kb = (bytes: number): string => (bytes / 1024).toFixed(1);

function parseArgs(argv: string[]): BenchOptions {
  const at = argv.indexOf('--runs');
  const runs = at >= 0 ? Number(argv[at + 1]) : 5;
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a positive integer');
  return {
    runs,
    sourceMaps: !argv.includes('--no-source-maps'),
    compareExternal: argv.includes('--compare-external'),
  };
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  rmSync(OUT_DIR, { recursive: true, force: true });
  const names: FunctionName[] = [...groups(), ...(existsSync(handlerEntry('worker')) ? (['worker'] as const) : [])];
  const rows: Row[] = [];
  for (const name of names) {
    const bundled = await measure(name, 'bundled', options);
    const external = options.compareExternal ? await measure(name, 'external', options) : undefined;
    rows.push({ name, bundled, external });
  }
  const nodeOptions = options.sourceMaps ? SOURCE_MAP_NODE_OPTIONS : '(none)';
  console.log(`node ${process.version}, NODE_OPTIONS ${nodeOptions}; limits: 2 MB, ${IMPORT_LIMIT_MS} ms\n`);
  printTable(rows, options.runs);
  if (!names.includes('worker')) console.log('\nworker: functions/worker/handler.ts does not exist yet; not measured');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
