/**
 * What operators see of the reranker: a warning per call that failed (the fused order was answered
 * instead), with the reason, and the metrics `Reranks` (its order used), `RerankFallbacks` (it failed)
 * and `RerankMs` (its time, failures included), registered in core/metrics.ts so the dashboard shows them.
 */
import type { RerankReport } from '../core/reranking/candidate-rerank';
import { emitMetric } from '../core/metrics';
import { logger } from '../observability';

export function recordRerank(report: RerankReport): void {
  emitMetric('RerankMs', report.ms);
  if (report.outcome === 'applied') {
    emitMetric('Reranks', 1);
    return;
  }
  emitMetric('RerankFallbacks', 1);
  logger.warn('reranker failed: the fused order was answered', {
    reranker: report.reranker,
    candidates: report.candidates,
    ms: report.ms,
    reason: report.reason,
  });
}
