/**
 * Retrieval quality harness on the development splits, offline default (no model, no network).
 *
 *   npx tsx bench/quality.ts [--data ../shared/bench-data] [--only scifact|musique|hotpotqa] [--no-graph] [--cv K [--cv-no-refit]]
 *
 * For each benchmark: load it where it lies (bench/quality/datasets.ts), then ingest it through kmem's own
 * code (bench/quality/corpus.ts): every document is a file cut by `chunkFile`, and the index version is
 * built by `buildIndexVersion` with the worker's settings, for a vector memory (1,000 / 10), the same
 * memory with acceleration (HNSW), and a graph memory (culture ontology, graph chunk defaults).
 * The headline rows ("API path") run every query through `retrieveFromIndex`, the ranking `GET /memory/`
 * runs (the graph walk included for the graph memory). The per-mode rows (lexical, links, semantic) run
 * `retrieve` with a mode or parameter overrides over the same built vector index, and the "graph (PPR)"
 * row is the graph memory's graph list alone (bench/quality/graph-hook.ts); `--no-graph` skips the graph
 * memory. With a reranker configured (`KMEM_RERANKER` and its settings, docs/configuration.md#reranker), one
 * more row runs the vector memory's API path through it (`KMEM_RERANKER=openai KMEM_RERANKER_URL=… npx tsx
 * bench/quality.ts`); without one, the tables are what they were. Metrics use each query's payload items
 * mapped to their file (document), best first.
 * Prints a markdown table per benchmark (published and measured reference rows, then kmem's) and times.
 * `--cv K` prints instead the K-fold cross-validation of the ranking constants over the vector memory
 * (bench/quality/cross-validation.ts): fitted, held-out folds at the defaults, and refit per fold over a
 * 27-point grid (`--cv-no-refit`: the defaults alone, one ranking per query).
 */
import { resolve } from 'node:path';
import type { RankParamOverrides } from '../functions/engine/retrieval/params';
import type { RetrievalMode } from '../functions/engine/retrieval/rank';
import { retrieve } from '../functions/engine/retrieval/retrieve';
import type { WordVectorEmbedder } from '../functions/engine/retrieval/word-vector-embedder';
import { loadWordVectorEmbedder } from '../functions/adapters/embeddings/word-vector-loader';
import { retrieveFromIndex } from '../functions/core/use-cases/retrieve-memory';
import { localConfig } from '../functions/config';
import { candidateRerank } from '../functions/core/reranking/candidate-rerank';
import type { Reranker } from '../functions/core/reranking/ports';
import { rerankerFromSettings } from '../functions/adapters/providers/reranker-from-settings';
import { benchmarkMemory, type BenchmarkIndex, buildBenchmarkIndex } from './quality/corpus';
import { type Benchmark, BENCHMARK_NAMES, type BenchmarkName, loadBenchmark } from './quality/datasets';
import { averageMetrics, evaluationDepth, type Metrics, metricNames, queryMetrics } from './quality/evaluate';
import { graphList } from './quality/graph-hook';
import { REFERENCES } from './quality/references';
import { crossValidate } from './quality/cross-validation';

type IndexName = 'vector' | 'accelerated' | 'graph';

interface ModeRun {
  label: string;
  index: IndexName;
  /** API path: `retrieveFromIndex` (with the index's graph, if any); 'no-graph': the same without the graph. */
  api?: 'full' | 'no-graph';
  /** Mode rows: `retrieve` with this mode and parameter overrides. */
  mode?: RetrievalMode;
  params?: RankParamOverrides;
  /** The graph memory's graph list alone. */
  graphAlone?: boolean;
  /** API path through the configured reranker. */
  rerank?: boolean;
}

const RUNS: ModeRun[] = [
  { label: 'kmem lexical (BM25 title+text, title field)', index: 'vector', mode: 'lexical', params: { links: { weight: 0 } } },
  { label: 'kmem lexical + title links', index: 'vector', mode: 'lexical' },
  { label: 'kmem semantic (word vectors, SIF)', index: 'vector', mode: 'semantic' },
  { label: 'kmem fused, API path (vector memory)', index: 'vector', api: 'full' },
  { label: 'kmem fused, API path, acceleration (HNSW)', index: 'accelerated', api: 'full' },
  { label: 'kmem graph (PPR) alone (graph memory)', index: 'graph', graphAlone: true },
  { label: 'kmem fused, graph memory chunks, no graph walk', index: 'graph', api: 'no-graph' },
  { label: 'kmem fused + graph, API path (graph memory)', index: 'graph', api: 'full' },
];

/** The reranker the environment configures (KMEM_RERANKER), if any: its row is added to RUNS. */
const config = localConfig();
const reranker: Reranker | null = rerankerFromSettings(config.reranker, config);
if (reranker)
  RUNS.push({ label: `kmem fused + reranker (${reranker.name}), API path (vector memory)`, index: 'vector', api: 'full', rerank: true });

/** Reranker failures during the bench (each query's fused order stood instead). */
let rerankFailures = 0;

interface Row {
  label: string;
  metrics: Metrics | null;
  queryMs: number;
}

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

async function rankedFiles(
  benchmark: Benchmark,
  built: BenchmarkIndex,
  embedder: WordVectorEmbedder,
  run: ModeRun,
  query: string,
): Promise<string[]> {
  const { retrieval, graph } = built.loaded;
  const topK = evaluationDepth(benchmark);
  if (run.graphAlone) {
    const fileOf = new Map(retrieval.chunks.ids.map((id, ordinal) => [id, retrieval.chunks.fileIds[ordinal] ?? '']));
    return graph ? graphList(graph, query).hits.map((hit) => fileOf.get(hit.chunkId) ?? '') : [];
  }
  if (run.api) {
    const index = { retrieval, graph: run.api === 'full' ? graph : null };
    const rerank =
      run.rerank && reranker
        ? candidateRerank(reranker, query, (report) => {
            if (report.outcome === 'failed') rerankFailures++;
          })
        : undefined;
    const outcome = await retrieveFromIndex(index, { query, topK, facts: false, assisted: false }, { embedder, rerank });
    return outcome.items.map((item) => item.fileId);
  }
  const outcome = await retrieve(retrieval, { query, topK, mode: run.mode, params: run.params }, { embedder });
  return outcome.items.map((item) => item.fileId);
}

async function runMode(benchmark: Benchmark, built: BenchmarkIndex | undefined, embedder: WordVectorEmbedder, run: ModeRun): Promise<Row> {
  if (!built) return { label: `${run.label}: skipped (--no-graph)`, metrics: null, queryMs: Number.NaN };
  const perQuery: Metrics[] = [];
  const started = performance.now();
  for (const query of benchmark.queries)
    perQuery.push(queryMetrics(benchmark, query, await rankedFiles(benchmark, built, embedder, run, query.text)));
  return { label: run.label, metrics: averageMetrics(perQuery), queryMs: (performance.now() - started) / benchmark.queries.length };
}

async function measure(dataDir: string, name: BenchmarkName, embedder: WordVectorEmbedder): Promise<void> {
  const benchmark = loadBenchmark(dataDir, name);
  const indexes: Partial<Record<IndexName, BenchmarkIndex>> = {
    vector: await buildBenchmarkIndex(benchmark, benchmarkMemory('vector'), embedder),
    accelerated: await buildBenchmarkIndex(benchmark, benchmarkMemory('vector', { acceleration: true }), embedder),
  };
  if (!process.argv.includes('--no-graph')) indexes.graph = await buildBenchmarkIndex(benchmark, benchmarkMemory('graph'), embedder);
  const rows: Row[] = [];
  for (const run of RUNS) rows.push(await runMode(benchmark, indexes[run.index], embedder, run));
  printTable(benchmark, rows);
  if (reranker) console.log(`\nreranker ${reranker.name}: ${rerankFailures} failed calls (their queries kept the fused order)`);
  const seconds = (built: BenchmarkIndex | undefined): string => (built ? `${(built.buildMs / 1000).toFixed(1)} s` : 'skipped');
  const graph = indexes.graph;
  const counts = graph?.built.graph?.counts;
  console.log(
    `\n${benchmark.documents.length.toLocaleString('en')} documents → ${indexes.vector?.chunks.length.toLocaleString('en')} chunks ` +
      `(graph memory: ${graph ? graph.chunks.length.toLocaleString('en') : '–'}); ${benchmark.queries.length} queries. ` +
      `buildIndexVersion: vector memory ${seconds(indexes.vector)}; with acceleration ${seconds(indexes.accelerated)}; ` +
      `graph memory ${seconds(graph)}${counts ? ` (${counts.entities} entities, ${counts.relations} relations)` : ''}.\n`,
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
  const embedder = loadWordVectorEmbedder();
  console.log(`Offline default, Node ${process.version}; word vectors loaded in ${((performance.now() - started) / 1000).toFixed(1)} s.\n`);
  const folds = argument('--cv');
  if (folds === undefined) {
    for (const name of names) await measure(dataDir, name, embedder);
    return;
  }
  if (!/^\d+$/.test(folds) || Number(folds) < 2) throw new Error(`--cv must be a number of folds ≥ 2, got '${folds}'`);
  const splits = [];
  for (const name of names) {
    const benchmark = loadBenchmark(dataDir, name);
    splits.push({ benchmark, index: (await buildBenchmarkIndex(benchmark, benchmarkMemory('vector'), embedder)).built.retrieval });
  }
  await crossValidate(splits, embedder, Number(folds), !process.argv.includes('--cv-no-refit'));
}

await main();
