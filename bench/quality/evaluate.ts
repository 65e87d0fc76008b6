/**
 * Runs a benchmark's queries through a ranking function (query → document ids, best first) and
 * averages the metrics its protocol reports: SciFact nDCG@10, R@10, R@100; MuSiQue and HotpotQA R@2,
 * R@5 (and R@10, shown in tuning output).
 */
import type { Benchmark, BenchQuery } from './datasets';
import { distinctInOrder, mean, ndcgAt, recallAt } from './metrics';

export type Metrics = Record<string, number>;

/** The metric names reported for a benchmark, in table order. */
export function metricNames(benchmark: Benchmark): string[] {
  return benchmark.name === 'scifact' ? ['nDCG@10', 'R@10', 'R@100'] : ['R@2', 'R@5', 'R@10'];
}

/** Metrics of one query given its ranked document ids. */
export function queryMetrics(benchmark: Benchmark, query: BenchQuery, rankedDocs: readonly string[]): Metrics {
  const docs = distinctInOrder(rankedDocs);
  if (benchmark.name === 'scifact') {
    return { 'nDCG@10': ndcgAt(docs, query.gold, 10), 'R@10': recallAt(docs, query.gold, 10), 'R@100': recallAt(docs, query.gold, 100) };
  }
  return { 'R@2': recallAt(docs, query.gold, 2), 'R@5': recallAt(docs, query.gold, 5), 'R@10': recallAt(docs, query.gold, 10) };
}

/** Mean metrics over `queries` (default: all of the benchmark's). */
export function averageMetrics(perQuery: readonly Metrics[]): Metrics {
  const names = Object.keys(perQuery[0] ?? {});
  return Object.fromEntries(names.map((name) => [name, mean(perQuery.map((metrics) => metrics[name] ?? 0))]));
}

/** How many documents a benchmark's metrics look at (the depth to retrieve). */
export function evaluationDepth(benchmark: Benchmark): number {
  return benchmark.name === 'scifact' ? 100 : 10;
}
