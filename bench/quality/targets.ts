/**
 * The tuning objective of the development splits: each split's headline metric divided by its target
 * (SciFact nDCG@10 / 0.70, MuSiQue R@5 / 0.56, HotpotQA R@5 / 0.82); the objective is the smallest of
 * these ratios plus a tenth of their mean, so the split furthest from its target drives a search and
 * none is traded away. tune.ts searches with it and cross-validation.ts refits within folds with it.
 */
import type { BenchmarkName } from './datasets';

export const TARGETS: Readonly<Record<BenchmarkName, readonly [metric: string, target: number]>> = {
  scifact: ['nDCG@10', 0.7],
  musique: ['R@5', 0.56],
  hotpotqa: ['R@5', 0.82],
};

/** The objective of one score per split (by name), as described above. */
export function objectiveOf(scores: ReadonlyMap<BenchmarkName, number>): number {
  const ratios = [...scores].map(([name, score]) => score / TARGETS[name][1]);
  if (ratios.length === 0) return 0;
  return Math.min(...ratios) + (0.1 * ratios.reduce((sum, ratio) => sum + ratio, 0)) / ratios.length;
}
