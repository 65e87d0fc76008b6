/**
 * What operators see of the reranker: a warning per call that failed (the fused order was answered
 * instead), with the reason, and the metrics `Reranks` (its order used), `RerankFallbacks` (it failed)
 * and `RerankMs` (its time, failures included).
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { RerankReport } from '../core/reranking/candidate-rerank';
import { logger, metrics } from '../observability';

export function recordRerank(report: RerankReport): void {
  metrics.addMetric('RerankMs', MetricUnit.Milliseconds, report.ms);
  if (report.outcome === 'applied') {
    metrics.addMetric('Reranks', MetricUnit.Count, 1);
    return;
  }
  metrics.addMetric('RerankFallbacks', MetricUnit.Count, 1);
  logger.warn('reranker failed: the fused order was answered', {
    reranker: report.reranker,
    candidates: report.candidates,
    ms: report.ms,
    reason: report.reason,
  });
}
