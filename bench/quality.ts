/**
 * Retrieval quality harness on the development splits, offline default (no model, no network).
 *
 *   npx tsx bench/quality.ts [--data ../shared/bench-data] [--only scifact|musique|hotpotqa] [--no-graph]
 *
 * For each benchmark: load it where it lies (bench/quality/datasets.ts), chunk it with the project's
 * chunker (vector-memory defaults), build the retrieval index with the offline embedder
 * (buildRetrievalIndex), then run every query through `retrieve` (the function `GET /memory/` calls)
 * in each mode and print a markdown table: published and measured reference rows, then kmem's rows.
 * Modes: lexical (BM25 over title + text and the title field), lexical + title links, semantic (word
 * vectors alone), fused (lexical + links + semantic + sentence rerank; the default), fused with
 * acceleration (HNSW instead of exact vector search), graph (PPR over the graph library's entity-chunk
 * graph, bench/quality/graph-hook.ts) alone, and fused + graph (`--no-graph` skips the graph rows).
 * Metrics use each query's ranked documents (chunk → document). Also prints build and per-query times.
 */
import { resolve } from 'node:path';
import { buildHnsw } from '../functions/core/retrieval/hnsw';
import type { ExternalList, RetrievalMode } from '../functions/core/retrieval/rank';
import type { RankParamOverrides } from '../functions/core/retrieval/params';
import { buildRetrievalIndex, type RetrievalIndex } from '../functions/core/retrieval/retrieval-index';
import { retrieve } from '../functions/core/retrieval/retrieve';
import { WordVectorEmbedder } from '../functions/core/retrieval/word-vector-embedder';
import { benchmarkChunks } from './quality/corpus';
import { type Benchmark, BENCHMARK_NAMES, type BenchmarkName, loadBenchmark } from './quality/datasets';
import { averageMetrics, evaluationDepth, type Metrics, metricNames, queryMetrics } from './quality/evaluate';
import { type GraphRanker, prepareGraph } from './quality/graph-hook';
import { REFERENCES } from './quality/references';

interface ModeRun {
  label: string;
  mode: RetrievalMode;
  params?: RankParamOverrides;
  accelerated?: boolean;
  graph?: 'alone' | 'fused';
}

const RUNS: ModeRun[] = [
  { label: 'kmem lexical (BM25 title+text, title field)', mode: 'lexical', params: { links: { weight: 0 } } },
  { label: 'kmem lexical + title links', mode: 'lexical' },
  { label: 'kmem semantic (word vectors, SIF)', mode: 'semantic' },
  { label: 'kmem fused (default)', mode: 'fused' },
  { label: 'kmem fused, acceleration (HNSW)', mode: 'fused', accelerated: true },
  { label: 'kmem graph (PPR)', mode: 'fused', graph: 'alone' },
  { label: 'kmem fused + graph', mode: 'fused', graph: 'fused' },
];

interface Row {
  label: string;
  metrics: Metrics | null;
  queryMs: number;
}

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

async function runMode(benchmark: Benchmark, index: RetrievalIndex, embedder: WordVectorEmbedder, run: ModeRun, graph: GraphRanker | null): Promise<Row> {
  if (run.graph && !graph) return { label: `${run.label}: skipped (--no-graph)`, metrics: null, queryMs: Number.NaN };
  const fileOf = new Map(index.chunks.ids.map((id, ordinal) => [id, index.chunks.fileIds[ordinal] ?? '']));
  const perQuery: Metrics[] = [];
  const started = performance.now();
  for (const query of benchmark.queries) {
    const external: ExternalList[] = graph && run.graph ? [graph(query.text)] : [];
    let ranked: string[];
    if (run.graph === 'alone') {
      ranked = (external[0]?.hits ?? []).map((hit) => fileOf.get(hit.chunkId) ?? '');
    } else {
      const request = { query: query.text, topK: evaluationDepth(benchmark), mode: run.mode, params: run.params, external };
      ranked = (await retrieve(index, request, { embedder })).items.map((item) => item.fileId);
    }
    perQuery.push(queryMetrics(benchmark, query, ranked));
  }
  return { label: run.label, metrics: averageMetrics(perQuery), queryMs: (performance.now() - started) / benchmark.queries.length };
}

async function measure(dataDir: string, name: BenchmarkName, embedder: WordVectorEmbedder): Promise<void> {
  const benchmark = loadBenchmark(dataDir, name);
  const chunks = benchmarkChunks(benchmark);
  let started = performance.now();
  const index = await buildRetrievalIndex(chunks, { embedder });
  const buildMs = performance.now() - started;
  started = performance.now();
  const accelerated: RetrievalIndex = { ...index, ann: index.vectors ? buildHnsw(index.vectors) : null };
  const hnswMs = performance.now() - started;
  started = performance.now();
  const graph = prepareGraph(chunks, !process.argv.includes('--no-graph'));
  const graphMs = performance.now() - started;
  const rows: Row[] = [];
  for (const run of RUNS) rows.push(await runMode(benchmark, run.accelerated ? accelerated : index, embedder, run, graph));
  printTable(benchmark, rows);
  console.log(
    `\n${benchmark.documents.length.toLocaleString('en')} documents → ${chunks.length.toLocaleString('en')} chunks; ` +
      `${benchmark.queries.length} queries. Build (lexical + embeddings): ${(buildMs / 1000).toFixed(1)} s; ` +
      `HNSW: ${(hnswMs / 1000).toFixed(1)} s; graph: ${graph ? `${(graphMs / 1000).toFixed(1)} s` : 'skipped'}.\n`,
  );
}

function printTable(benchmark: Benchmark, rows: Row[]): void {
  const names = metricNames(benchmark).filter((metric) => benchmark.name === 'scifact' || metric !== 'R@10');
  console.log(`### ${benchmark.name}\n`);
  console.log(`| system | split | ${names.join(' | ')} | ms/query |`);
  console.log(`|---|---|${names.map(() => '---:').join('|')}|---:|`);
  for (const reference of REFERENCES[benchmark.name]) {
    const cells = names.map((metric) => formatMetric(reference.metrics[metric]));
    console.log(`| ${reference.system} | ${reference.split} | ${cells.join(' | ')} | |`);
  }
  for (const row of rows) {
    const cells = names.map((metric) => formatMetric(row.metrics?.[metric]));
    const time = Number.isNaN(row.queryMs) ? '' : row.queryMs.toFixed(2);
    console.log(`| **${row.label}** | dev | ${cells.join(' | ')} | ${time} |`);
  }
}

function formatMetric(value: number | undefined): string {
  return value === undefined ? '' : value.toFixed(3);
}

async function main(): Promise<void> {
  const dataDir = resolve(argument('--data') ?? resolve(import.meta.dirname, '../../shared/bench-data'));
  const only = argument('--only');
  const names = BENCHMARK_NAMES.filter((name) => !only || name === only);
  if (names.length === 0) throw new Error(`--only must be one of ${BENCHMARK_NAMES.join(', ')}`);
  const started = performance.now();
  const embedder = WordVectorEmbedder.load();
  console.log(`Offline default, Node ${process.version}; word vectors loaded in ${((performance.now() - started) / 1000).toFixed(1)} s.\n`);
  for (const name of names) await measure(dataDir, name, embedder);
}

await main();
