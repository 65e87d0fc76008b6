/**
 * k-fold cross-validation of the ranking constants (functions/engine/retrieval/params.ts) on the
 * development splits, for `npx tsx bench/quality.ts --cv K`.
 *
 * Each query lands in fold `position mod K` of its split. Every grid point is scored once per query
 * (`retrieve` over the vector memory's index, the API path without a graph); folds are then arithmetic
 * over those per-query scores. Printed per split and headline metric:
 * - fitted: the mean over all queries at the shipped defaults (what the tables show);
 * - defaults, held-out folds: the defaults' mean per fold, as mean ± standard deviation over the folds
 *   (the spread a new set of questions of that size would see);
 * - refit per fold: on each fold's other K-1 folds of every split, the grid point with the best joint
 *   objective (targets.ts) is chosen and scored on the held-out fold; mean ± spread over the folds, and
 *   the points chosen. A large gap between "fitted" and this row means the constants fit the dev queries.
 * The grid covers the three constants that moved the objective most in tune.ts: the semantic list's
 * fusion weight, BM25's b of the text field and the idf exponent.
 */
import type { RankParamOverrides } from '../../functions/engine/retrieval/params';
import { retrieve } from '../../functions/engine/retrieval/retrieve';
import type { RetrievalIndex } from '../../functions/engine/retrieval/retrieval-index';
import type { WordVectorEmbedder } from '../../functions/engine/retrieval/word-vector-embedder';
import type { Benchmark, BenchmarkName } from './datasets';
import { evaluationDepth, queryMetrics } from './evaluate';
import { mean } from './metrics';
import { objectiveOf, TARGETS } from './targets';

export interface CvSplit {
  benchmark: Benchmark;
  index: RetrievalIndex;
}

interface GridPoint {
  label: string;
  params: RankParamOverrides;
}

const SEMANTIC_WEIGHTS = [0.2, 0.35, 0.5];
const TEXT_B = [0.3, 0.5, 0.75];
const IDF_EXPONENTS = [1, 1.5, 1.7];

/** The defaults first, then the product of the three constants' values. */
function grid(): GridPoint[] {
  const points: GridPoint[] = [{ label: 'defaults', params: {} }];
  for (const semanticWeight of SEMANTIC_WEIGHTS)
    for (const b of TEXT_B)
      for (const idfExponent of IDF_EXPONENTS)
        points.push({
          label: `semanticWeight ${semanticWeight}, text.b ${b}, idfExponent ${idfExponent}`,
          params: { semanticWeight, text: { b, idfExponent }, title: { idfExponent } },
        });
  return points;
}

/** The split's headline metric of each query under `params`, in query order. */
async function perQueryScores(split: CvSplit, embedder: WordVectorEmbedder, params: RankParamOverrides): Promise<number[]> {
  const { benchmark, index } = split;
  const [metric] = TARGETS[benchmark.name];
  const topK = evaluationDepth(benchmark);
  const scores: number[] = [];
  for (const query of benchmark.queries) {
    const outcome = await retrieve(index, { query: query.text, topK, params }, { embedder });
    scores.push(
      queryMetrics(
        benchmark,
        query,
        outcome.items.map((item) => item.fileId),
      )[metric] ?? 0,
    );
  }
  return scores;
}

const inFold = (fold: number, folds: number) => (_: number, position: number) => position % folds === fold;
const outOfFold = (fold: number, folds: number) => (_: number, position: number) => position % folds !== fold;

function meanAndSpread(values: readonly number[]): string {
  const average = mean(values);
  const spread = Math.sqrt(mean(values.map((value) => (value - average) ** 2)));
  return `${average.toFixed(3)} ± ${spread.toFixed(3)}`;
}

/**
 * Runs the cross-validation over `splits` and prints its table (see the module comment). Without
 * `refit`, only the defaults are scored (one ranking per query): the refit column then repeats them.
 */
export async function crossValidate(splits: readonly CvSplit[], embedder: WordVectorEmbedder, folds: number, refit = true): Promise<void> {
  const points = refit ? grid() : grid().slice(0, 1);
  const started = performance.now();
  // scores[point][split][query]
  const scores: number[][][] = [];
  for (const point of points) scores.push(await Promise.all(splits.map((split) => perQueryScores(split, embedder, point.params))));
  const chosen: number[] = [];
  const refitted: number[][] = splits.map(() => []);
  const defaults: number[][] = splits.map(() => []);
  for (let fold = 0; fold < folds; fold++) {
    let best = 0;
    let bestObjective = Number.NEGATIVE_INFINITY;
    points.forEach((_, point) => {
      const training = new Map<BenchmarkName, number>(
        splits.map((split, s) => [split.benchmark.name, mean(scores[point]![s]!.filter(outOfFold(fold, folds)))]),
      );
      const value = objectiveOf(training);
      if (value > bestObjective + 1e-9) [best, bestObjective] = [point, value];
    });
    chosen.push(best);
    splits.forEach((_, s) => {
      refitted[s]!.push(mean(scores[best]![s]!.filter(inFold(fold, folds))));
      defaults[s]!.push(mean(scores[0]![s]!.filter(inFold(fold, folds))));
    });
  }
  printCv(splits, { folds, scores, defaults, refit: refitted, chosen: chosen.map((point) => points[point]!.label) });
  console.log(`\n${points.length} grid points × every query, ${((performance.now() - started) / 1000).toFixed(0)} s.\n`);
}

interface CvFigures {
  folds: number;
  scores: number[][][];
  defaults: number[][];
  refit: number[][];
  chosen: string[];
}

function printCv(splits: readonly CvSplit[], figures: CvFigures): void {
  console.log(`### ${figures.folds}-fold cross-validation (vector memory, API path without graph)\n`);
  console.log('| split | metric | queries | fitted (defaults, all queries) | defaults, held-out folds | refit per fold, held-out folds |');
  console.log('|---|---|---:|---:|---:|---:|');
  splits.forEach((split, s) => {
    const [metric] = TARGETS[split.benchmark.name];
    const fitted = mean(figures.scores[0]![s]!).toFixed(3);
    const row = [
      split.benchmark.name,
      metric,
      split.benchmark.queries.length,
      fitted,
      meanAndSpread(figures.defaults[s]!),
      meanAndSpread(figures.refit[s]!),
    ];
    console.log(`| ${row.join(' | ')} |`);
  });
  if (figures.scores.length === 1) {
    console.log('\nmean ± standard deviation over the folds; refit skipped (--cv-no-refit): its column repeats the defaults.');
    return;
  }
  console.log('\nmean ± standard deviation over the folds. Refit grid (per fold, joint objective of bench/quality/targets.ts):');
  console.log(`semanticWeight ${SEMANTIC_WEIGHTS.join('/')}, text.b ${TEXT_B.join('/')}, idfExponent ${IDF_EXPONENTS.join('/')}.`);
  figures.chosen.forEach((label, fold) => console.log(`- fold ${fold + 1}: ${label}`));
}
