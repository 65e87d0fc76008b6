/** Command-line options of bench/latency.ts. */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

export interface LatencyOptions {
  /** The SciFact folder (corpus.jsonl, queries.jsonl), read where it lies. */
  dataDir: string;
  /** Least chunks each memory must hold. */
  chunks: number;
  /** Text files the corpus is packed into. */
  files: number;
  /** The memories' vector `chunkSize` (characters); overlap stays at the 10% default. */
  chunkSize: number;
  /** Warm sequential queries measured per memory, after `warmup` discarded ones. */
  queries: number;
  warmup: number;
  /** Concurrent run: connections and seconds per memory. */
  connections: number;
  durationSeconds: number;
  /** Server restarts for cold samples (the last restarted server also serves the warm runs). */
  restarts: number;
  /** The `topK` values measured warm, each a sequential and a concurrent run (first one: the verdict's). */
  topKs: number[];
  /** Only the memory with acceleration `on` or `off`. */
  only?: 'on' | 'off';
  /** CPU-profile the server that serves the warm runs (`node --cpu-prof`). */
  cpuProfileDir?: string;
  /** Keep the servers' data here and reuse a build already made there (see saved-build.ts). */
  reuseDir?: string;
  /** Also time warm sequential queries with filters keeping 1% and 10% of the chunks (filters.ts). */
  filter: boolean;
}

const USAGE =
  'usage: npm run bench:latency -- [--data DIR] [--chunks 100000] [--files 200] [--chunk-size 200] [--queries 500] ' +
  '[--warmup 50] [--connections 4] [--duration 10] [--restarts 4] [--top-k 10,100] [--only on|off] [--cpu-prof DIR] [--reuse DIR] [--filter]';

export function parseLatencyOptions(argv: string[] = process.argv.slice(2)): LatencyOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      data: { type: 'string', default: resolve(import.meta.dirname, '../../../shared/bench-data/scifact') },
      chunks: { type: 'string', default: '100000' },
      files: { type: 'string', default: '200' },
      'chunk-size': { type: 'string', default: '200' },
      queries: { type: 'string', default: '500' },
      warmup: { type: 'string', default: '50' },
      connections: { type: 'string', default: '4' },
      duration: { type: 'string', default: '10' },
      restarts: { type: 'string', default: '4' },
      'top-k': { type: 'string', default: '10' },
      only: { type: 'string' },
      'cpu-prof': { type: 'string' },
      reuse: { type: 'string' },
      filter: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.only !== undefined && values.only !== 'on' && values.only !== 'off') {
    throw new Error(`--only must be 'on' or 'off', got '${values.only}'\n${USAGE}`);
  }
  return {
    dataDir: resolve(values.data),
    chunks: integer('chunks', values.chunks, 1),
    files: integer('files', values.files, 1),
    chunkSize: integer('chunk-size', values['chunk-size'], 100),
    queries: integer('queries', values.queries, 1),
    warmup: integer('warmup', values.warmup, 0),
    connections: integer('connections', values.connections, 1),
    durationSeconds: integer('duration', values.duration, 1),
    restarts: integer('restarts', values.restarts, 1),
    topKs: topKList(values['top-k']),
    only: values.only,
    cpuProfileDir: values['cpu-prof'] ? resolve(values['cpu-prof']) : undefined,
    reuseDir: values.reuse ? resolve(values.reuse) : undefined,
    filter: values.filter === true,
  };
}

function integer(name: string, text: string | undefined, least: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < least) throw new Error(`--${name} must be an integer ≥ ${least}, got '${text}'\n${USAGE}`);
  return value;
}

function topKList(text: string | undefined): number[] {
  const values = (text ?? '').split(',').map((part) => Number(part.trim()));
  if (values.length === 0 || values.some((value) => !Number.isInteger(value) || value < 1 || value > 100)) {
    throw new Error(`--top-k must be a comma-separated list of integers 1-100, got '${text}'\n${USAGE}`);
  }
  return values;
}
