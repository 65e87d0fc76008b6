/**
 * Parameter search for the ranking defaults (functions/engine/retrieval/params.ts), on the development
 * splits only. Builds each benchmark's vector-memory index once (chunkFile + buildIndexVersion,
 * bench/quality/corpus.ts, offline embedder), embeds the queries once, then
 * scores parameter sets one coordinate at a time around the current best. Each split's headline
 * metric is divided by its target (SciFact nDCG@10 / 0.70, MuSiQue R@5 / 0.56, HotpotQA R@5 / 0.82);
 * the objective is the smallest of these ratios plus a tenth of their mean, so the split furthest
 * from its target drives the search and none is traded away. Prints every step; also prints a
 * two-fold check (tune on odd queries, score even ones, and the reverse) to show how much the tuned
 * numbers flatter themselves.
 *
 *   npx tsx bench/quality/tune.ts [--data ../shared/bench-data] [--graph]
 *
 * `--graph` skips the search and instead sweeps the graph list's fusion weight (`graphWeight`) at the
 * default parameters, over a graph memory's index version (its chunks and graph, built by
 * buildIndexVersion) with its PPR lists (bench/quality/graph-hook.ts) computed once.
 */
import { resolve } from 'node:path';
import type { RankParamOverrides } from '../../functions/engine/retrieval/params';
import { type ExternalList, rankChunks } from '../../functions/engine/retrieval/rank';
import type { RetrievalIndex } from '../../functions/engine/retrieval/retrieval-index';
import type { WordVectorEmbedder } from '../../functions/engine/retrieval/word-vector-embedder';
import { loadWordVectorEmbedder } from '../../functions/adapters/embeddings/word-vector-loader';
import { benchmarkMemory, buildBenchmarkIndex } from './corpus';
import { type Benchmark, BENCHMARK_NAMES, loadBenchmark } from './datasets';
import { averageMetrics, evaluationDepth, type Metrics, queryMetrics } from './evaluate';
import { graphList } from './graph-hook';
import { objectiveOf, TARGETS } from './targets';

interface Prepared {
  benchmark: Benchmark;
  index: RetrievalIndex;
  vectors: Float32Array[];
  /** Per query, the graph side's list (only with --graph). */
  graphLists?: ExternalList[];
}

function argument(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

async function prepare(dataDir: string, embedder: WordVectorEmbedder): Promise<Prepared[]> {
  const prepared: Prepared[] = [];
  for (const name of BENCHMARK_NAMES) {
    const benchmark = loadBenchmark(dataDir, name);
    const index = (await buildBenchmarkIndex(benchmark, benchmarkMemory('vector'), embedder)).built.retrieval;
    prepared.push({ benchmark, index, vectors: await embedder.embed(benchmark.queries.map((query) => query.text)) });
  }
  return prepared;
}

let encoder: WordVectorEmbedder | undefined;

function evaluate(item: Prepared, params: RankParamOverrides, keep: (position: number) => boolean): Metrics {
  const { benchmark, index, vectors } = item;
  const perQuery = benchmark.queries.flatMap((query, position) => {
    if (!keep(position)) return [];
    const external = item.graphLists?.[position] ? [item.graphLists[position]] : [];
    const request = { query: query.text, queryVector: vectors[position], sentenceEncoder: encoder, params, external };
    const hits = rankChunks(index, { ...request, limit: 3 * evaluationDepth(benchmark) });
    return [
      queryMetrics(
        benchmark,
        query,
        hits.map((hit) => index.chunks.fileIds[hit.ordinal] ?? ''),
      ),
    ];
  });
  return averageMetrics(perQuery);
}

function objective(prepared: Prepared[], params: RankParamOverrides, keep: (position: number) => boolean): { value: number; text: string } {
  const scores = new Map<Benchmark['name'], number>();
  const parts: string[] = [];
  for (const item of prepared) {
    const [metric] = TARGETS[item.benchmark.name];
    const score = evaluate(item, params, keep)[metric] ?? 0;
    scores.set(item.benchmark.name, score);
    parts.push(`${item.benchmark.name} ${metric} ${score.toFixed(4)}`);
  }
  return { value: objectiveOf(scores), text: parts.join(', ') };
}

type Coordinate = { name: string; values: number[]; apply: (params: RankParamOverrides, value: number) => RankParamOverrides };

const COORDINATES: Coordinate[] = [
  { name: 'text.k1', values: [0.6, 0.9, 1.2, 1.5], apply: (p, v) => ({ ...p, text: { ...p.text, k1: v } }) },
  { name: 'text.b', values: [0.3, 0.4, 0.5, 0.6, 0.75], apply: (p, v) => ({ ...p, text: { ...p.text, b: v } }) },
  {
    name: 'idfExponent',
    values: [1, 1.15, 1.3, 1.5, 1.7],
    apply: (p, v) => ({ ...p, text: { ...p.text, idfExponent: v }, title: { ...p.title, idfExponent: v } }),
  },
  { name: 'titleWeight', values: [0, 0.15, 0.3, 0.5, 0.8], apply: (p, v) => ({ ...p, titleWeight: v }) },
  { name: 'links.weight', values: [0, 0.2, 0.3, 0.4, 0.6], apply: (p, v) => ({ ...p, links: { ...p.links, weight: v } }) },
  { name: 'links.feedbackChunks', values: [1, 2, 3, 5], apply: (p, v) => ({ ...p, links: { ...p.links, feedbackChunks: v } }) },
  { name: 'semanticWeight', values: [0, 0.1, 0.2, 0.35, 0.5], apply: (p, v) => ({ ...p, semanticWeight: v }) },
  { name: 'sentences.weight', values: [0, 0.2, 0.4, 0.6, 0.8], apply: (p, v) => ({ ...p, sentences: { ...p.sentences, weight: v } }) },
  { name: 'sentences.depth', values: [10, 20, 30, 50], apply: (p, v) => ({ ...p, sentences: { ...p.sentences, depth: v } }) },
];

function coordinateSearch(
  prepared: Prepared[],
  start: RankParamOverrides,
  keep: (position: number) => boolean,
  log: boolean,
): RankParamOverrides {
  let best = start;
  let bestValue = objective(prepared, best, keep).value;
  for (let round = 0; round < 2; round++) {
    for (const coordinate of COORDINATES) {
      for (const value of coordinate.values) {
        const candidate = coordinate.apply(best, value);
        const result = objective(prepared, candidate, keep);
        if (log) console.log(`${coordinate.name}=${value}: ${result.value.toFixed(4)} (${result.text})`);
        if (result.value > bestValue + 1e-6) [best, bestValue] = [candidate, result.value];
      }
    }
  }
  return best;
}

/** The untuned starting point: Anserini's BM25 (k1 0.9, b 0.4), no title field, no links, no vectors. */
const BASELINE: RankParamOverrides = {
  text: { k1: 0.9, b: 0.4, idfExponent: 1 },
  titleWeight: 0,
  links: { weight: 0 },
  semanticWeight: 0,
  sentences: { weight: 0 },
};

async function sweepGraphWeight(prepared: Prepared[]): Promise<void> {
  for (const item of prepared) {
    // a graph memory's own index version: its chunks (graph defaults) and its graph
    const built = await buildBenchmarkIndex(item.benchmark, benchmarkMemory('graph'), encoder as WordVectorEmbedder);
    const segment = built.loaded.graph;
    item.index = built.built.retrieval;
    item.graphLists = item.benchmark.queries.map((query) => (segment ? graphList(segment, query.text) : { name: 'graph', hits: [] }));
  }
  const all = (): boolean => true;
  for (const graphWeight of [0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5]) {
    const result = objective(prepared, { graphWeight }, all);
    console.log(`graphWeight=${graphWeight}: ${result.value.toFixed(4)} (${result.text})`);
  }
}

async function main(): Promise<void> {
  const dataDir = resolve(argument('--data', resolve(import.meta.dirname, '../../../shared/bench-data')));
  encoder = loadWordVectorEmbedder();
  const prepared = await prepare(dataDir, encoder);
  if (process.argv.includes('--graph')) return sweepGraphWeight(prepared);
  const all = (): boolean => true;
  const best = coordinateSearch(prepared, {}, all, true);
  console.log(`\nbest on all queries: ${JSON.stringify(best)}\n  ${objective(prepared, best, all).text}`);
  console.log(`  with RRF fusion instead: ${objective(prepared, { ...best, fusion: 'rrf' }, all).text}`);
  for (const parity of [0, 1]) {
    const tunedOn = (position: number): boolean => position % 2 === parity;
    const heldOut = (position: number): boolean => position % 2 !== parity;
    const tuned = coordinateSearch(prepared, {}, tunedOn, false);
    console.log(`two-fold: tuned on ${parity ? 'odd' : 'even'} queries ${JSON.stringify(tuned)}`);
    console.log(`  held-out, these params:      ${objective(prepared, tuned, heldOut).text}`);
    console.log(`  held-out, all-query params:  ${objective(prepared, best, heldOut).text}`);
    console.log(`  held-out, BM25 baseline:     ${objective(prepared, BASELINE, heldOut).text}`);
  }
}

await main();
