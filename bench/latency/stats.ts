/** Latency statistics of a timed run. */
import type { TimedRun } from './query-client';

export interface LatencySummary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
  /** Answered queries per second of wall time. */
  perSecond: number;
}

export function summarise(run: TimedRun): LatencySummary {
  const sorted = [...run.samples].sort((a, b) => a - b);
  const count = sorted.length;
  return {
    count,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    max: sorted[count - 1] ?? Number.NaN,
    mean: sorted.reduce((sum, ms) => sum + ms, 0) / Math.max(1, count),
    perSecond: count / (run.wallMs / 1000),
  };
}

/** Nearest-rank percentile of ascending samples. */
function percentile(sorted: readonly number[], share: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))]!;
}

export function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}
