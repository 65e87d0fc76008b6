/**
 * The service's own metrics (functions/core/metrics.ts, namespace `kmem`, dimension `service=kmem`) on
 * the dashboard, broken down by their dimension (file kind, memory type, charge reason) with SEARCH, and
 * the failure-rate alarms: files failing and webhook events given up on, as percentages of their totals.
 */
import type { Duration } from 'aws-cdk-lib';
import {
  type Alarm,
  type Dashboard,
  GraphWidget,
  type IAlarmAction,
  type IMetric,
  MathExpression,
  Metric,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';
import { METRICS, METRICS_NAMESPACE, type MetricName } from '../../functions/core/metrics';
import { addAlarm } from './alarms';

export interface ServiceMetricsOptions {
  readonly period: Duration;
  readonly evaluationPeriods: number;
  readonly fileFailurePercent: number;
  readonly webhookDeadPercent: number;
  readonly alarmAction?: IAlarmAction;
}

/** A service metric's total (every point, whatever its dimension value). */
function serviceMetric(name: MetricName, statistic: string, period: Duration): Metric {
  return new Metric({ namespace: METRICS_NAMESPACE, metricName: name, dimensionsMap: { service: 'kmem' }, statistic, period, label: name });
}

/** One line per dimension value of a metric (a SEARCH: dashboards only). */
function byDimension(name: MetricName, statistic: string, period: Duration): IMetric {
  const dimension = METRICS[name].dimension ?? 'service';
  const seconds = period.toSeconds();
  return new MathExpression({
    expression: `SEARCH('{${METRICS_NAMESPACE},${dimension},service} MetricName="${name}"', '${statistic}', ${seconds})`,
    label: name,
    period,
  });
}

/** Failed as a percentage of all, 0 while fewer than `least` happened in the period. */
function failureRate(failed: Metric, succeeded: Metric, least: number, label: string): MathExpression {
  return new MathExpression({
    expression: `IF((ok + bad) >= ${least}, 100 * bad / (ok + bad), 0)`,
    usingMetrics: { ok: succeeded, bad: failed },
    label,
    period: failed.period,
  });
}

export function addServiceMetrics(scope: Construct, dashboard: Dashboard, options: ServiceMetricsOptions): Alarm[] {
  const p = options.period;
  const graph = (title: string, left: IMetric[], right: IMetric[] = []) => new GraphWidget({ title, left, right, width: 8, height: 6 });
  dashboard.addWidgets(
    graph('Files processed by kind', [byDimension('FilesProcessed', 'Sum', p)]),
    graph('Files failed by kind', [byDimension('FilesFailed', 'Sum', p)], [byDimension('HostileFilesRefused', 'Sum', p)]),
    graph('Extraction seconds by kind', [byDimension('ExtractionSeconds', 'Sum', p)]),
  );
  dashboard.addWidgets(
    graph('Tokens ingested and charged', [serviceMetric('TokensIngested', 'Sum', p)], [byDimension('TokensCharged', 'Sum', p)]),
    graph(
      'Ingestion, index build and merge (s, p90)',
      [byDimension('IngestionSeconds', 'p90', p), byDimension('IndexBuildSeconds', 'p90', p)],
      [byDimension('IndexMergeSeconds', 'p90', p)],
    ),
    graph('Index size (bytes, max)', [byDimension('IndexBytes', 'Maximum', p)]),
  );
  dashboard.addWidgets(
    graph(
      'Retrieval latency by memory type and reranker (ms, p99)',
      [byDimension('RetrievalMs', 'p99', p)],
      [serviceMetric('RerankMs', 'p99', p)],
    ),
    graph(
      'Conversation syncs and lag (s, max)',
      [serviceMetric('ConversationSyncs', 'Sum', p)],
      [serviceMetric('ConversationSyncLagSeconds', 'Maximum', p)],
    ),
    graph(
      'Webhooks and rate limits',
      ['WebhookDeliveries', 'WebhookRetries', 'WebhookDead'].map((name) => serviceMetric(name as MetricName, 'Sum', p)),
      [serviceMetric('RateLimited', 'Sum', p)],
    ),
  );
  dashboard.addWidgets(
    graph('Reranker calls and fallbacks', [serviceMetric('Reranks', 'Sum', p), serviceMetric('RerankFallbacks', 'Sum', p)]),
  );
  const alarm = (id: string, metric: IMetric, threshold: number, description: string) =>
    addAlarm(scope, id, { metric, threshold, above: true, evaluationPeriods: options.evaluationPeriods, description }, options.alarmAction);
  const files = failureRate(serviceMetric('FilesFailed', 'Sum', p), serviceMetric('FilesProcessed', 'Sum', p), 5, 'file failure %');
  const hooks = failureRate(serviceMetric('WebhookDead', 'Sum', p), serviceMetric('WebhookDeliveries', 'Sum', p), 1, 'webhook dead %');
  return [
    alarm(
      'FileFailureRateAlarm',
      files,
      options.fileFailurePercent,
      `More than ${options.fileFailurePercent}% of processed files failed (5 files at least).`,
    ),
    alarm(
      'WebhookDeadRateAlarm',
      hooks,
      options.webhookDeadPercent,
      `More than ${options.webhookDeadPercent}% of webhook events were given up on.`,
    ),
  ];
}
