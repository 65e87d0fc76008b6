/**
 * What operators see of grounded answers: one log line per model answer (info when it answered, a
 * warning with the reason when the extracts were returned instead), and the metrics `Answers`,
 * `AnswerFallbacks` and `AnswerTokens` (model tokens billed, also charged to the account's budget).
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { AnswerReport } from '../core/answers/grounded-answer';
import { logger, metrics } from '../observability';

export function recordAnswer(report: AnswerReport): void {
  metrics.addMetric('AnswerTokens', MetricUnit.Count, report.tokensUsed);
  const details = {
    model: report.model,
    tokensUsed: report.tokensUsed,
    tokensReserved: report.tokensReserved,
    evidence: report.evidence,
    citations: report.citations,
  };
  if (report.outcome === 'answered') {
    metrics.addMetric('Answers', MetricUnit.Count, 1);
    logger.info('grounded answer', details);
    return;
  }
  metrics.addMetric('AnswerFallbacks', MetricUnit.Count, 1);
  logger.warn('grounded answer fell back to the extracts', { ...details, reason: report.reason });
}
