/**
 * Micro-benchmark of exact vector search over int8 rows: the JavaScript full scan against the
 * WebAssembly SIMD kernel with bounded rescoring (functions/engine/retrieval/int8-bounded-search.ts).
 *
 *   npx tsx bench/exact-search-micro.ts [--rows 100000] [--dims 100,384,768,1536] [--queries 50] [--k 100]
 *
 * Rows are clustered unit vectors (200 centres plus noise, int8 with a scale per row, as ingestion
 * stores them); queries are noisy centres. Per dimension it prints the mean ms per query of the scan and
 * of the kernel path (best of 3 rounds, so a busy machine disturbs them less), the kernel's integer pass
 * alone, the one-time set-up of a segment's kernel (copying its rows, the row-norm bound), and whether
 * both paths returned the same hits and scores for every query. k defaults to the ranking's candidate
 * count (params.ts), which is what `GET /memory/` asks of exact search.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { DEFAULT_RANK_PARAMS } from '../functions/engine/retrieval/params';
import { searchInt8Bounded } from '../functions/engine/retrieval/int8-bounded-search';
import { int8DotKernel } from '../functions/engine/retrieval/int8-dot-kernel';
import { searchExactScan, type VectorHit, type VectorSegment } from '../functions/engine/retrieval/vector-segment';

const ROUNDS = 3;
const CENTRES = 200;

interface Row {
  dims: number;
  scanMs: number;
  kernelMs: number;
  integerPassMs: number;
  setupMs: number;
  identical: boolean;
}

function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296 - 0.5;
  };
}

/** `centre + noise × random`, normalised to unit length. */
function noisyUnit(centre: Float32Array, noise: number, next: () => number): Float32Array {
  const vector = centre.map((value) => value + noise * next());
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

/** An int8 segment of clustered unit vectors, quantized like buildVectorSegment (scale = max|v| / 127). */
function clusteredSegment(count: number, dimensions: number, centres: Float32Array[], next: () => number): VectorSegment {
  const values = new Int8Array(count * dimensions);
  const scales = new Float32Array(count);
  for (let row = 0; row < count; row++) {
    const vector = noisyUnit(centres[row % centres.length] as Float32Array, 0.8, next);
    const largest = vector.reduce((top, value) => Math.max(top, Math.abs(value)), 0);
    scales[row] = largest / 127;
    for (let index = 0; index < dimensions; index++)
      values[row * dimensions + index] = Math.round((vector[index] as number) / (scales[row] as number));
  }
  return { dimensions, count, encoding: 'int8', values, scales };
}

/** Mean ms per call of `search` over `queries`, best of ROUNDS rounds after one warm-up round. */
function timePerQuery(queries: readonly Float32Array[], search: (query: Float32Array) => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round <= ROUNDS; round++) {
    const started = performance.now();
    for (const query of queries) search(query);
    const ms = (performance.now() - started) / queries.length;
    if (round > 0) best = Math.min(best, ms);
  }
  return best;
}

function measure(rows: number, dims: number, queryCount: number, k: number): Row {
  const next = generator(dims);
  const centres = Array.from({ length: CENTRES }, () => noisyUnit(new Float32Array(dims), 1, next));
  const segment = clusteredSegment(rows, dims, centres, next);
  const queries = Array.from({ length: queryCount }, (_, index) => noisyUnit(centres[(index * 7) % CENTRES] as Float32Array, 0.8, next));
  const started = performance.now();
  const kernel = int8DotKernel(segment);
  if (!kernel) throw new Error('WebAssembly SIMD is not available here');
  searchInt8Bounded(segment, kernel, queries[0] as Float32Array, k);
  const setupMs = performance.now() - started;
  const bounded = (query: Float32Array): VectorHit[] | null => searchInt8Bounded(segment, kernel, query, k);
  const identical = queries.every((query) => JSON.stringify(bounded(query)) === JSON.stringify(searchExactScan(segment, query, k)));
  return {
    dims,
    scanMs: timePerQuery(queries, (query) => searchExactScan(segment, query, k)),
    kernelMs: timePerQuery(queries, bounded),
    integerPassMs: timePerQuery(queries, () => kernel.run()),
    setupMs,
    identical,
  };
}

function main(): void {
  const { values } = parseArgs({
    options: {
      rows: { type: 'string', default: '100000' },
      dims: { type: 'string', default: '100,384,768,1536' },
      queries: { type: 'string', default: '50' },
      k: { type: 'string', default: String(DEFAULT_RANK_PARAMS.candidates) },
    },
  });
  const rows = Number(values.rows);
  const k = Number(values.k);
  console.log(
    `Exact top-${k} over ${rows.toLocaleString('en')} int8 rows; Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`,
  );
  console.log(
    `load average at start: ${loadavg()
      .map((value) => value.toFixed(2))
      .join(', ')}\n`,
  );
  console.log(
    '| dims | JS scan ms/query | SIMD kernel ms/query | speed-up | integer pass ms | one-time set-up ms | same hits and scores |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---|');
  for (const dims of values.dims.split(',').map(Number)) {
    const row = measure(rows, dims, Number(values.queries), k);
    const cells = [row.dims, row.scanMs.toFixed(2), row.kernelMs.toFixed(2), `${(row.scanMs / row.kernelMs).toFixed(1)}×`];
    console.log(`| ${[...cells, row.integerPassMs.toFixed(2), row.setupMs.toFixed(0), row.identical ? 'yes' : 'NO'].join(' | ')} |`);
  }
  console.log(
    `\nload average at end: ${loadavg()
      .map((value) => value.toFixed(2))
      .join(', ')}`,
  );
}

main();
