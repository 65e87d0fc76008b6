/**
 * The one metrics port: use cases and adapters say what happened (`emitMetric`), sinks decide where it
 * goes: Powertools EMF on Lambda (functions/observability.ts), the local runtime's summary (GET /metrics).
 * Dimensions are low-cardinality (a file kind, a memory type, an outcome); per-account values go in
 * `properties`, never in dimensions, so the metric count (and its cost) stays bounded.
 */

/** The CloudWatch namespace of kmem's metrics (Powertools EMF). */
export const METRICS_NAMESPACE = 'kmem';

/** Every metric kmem emits beyond requests and work items, with its unit and its dimension, if any. */
export const METRICS = {
  FilesProcessed: { unit: 'Count', dimension: 'kind' },
  FilesFailed: { unit: 'Count', dimension: 'kind' },
  HostileFilesRefused: { unit: 'Count', dimension: 'kind' },
  ExtractionSeconds: { unit: 'Seconds', dimension: 'kind' },
  TokensIngested: { unit: 'Count', dimension: null },
  TokensCharged: { unit: 'Count', dimension: 'reason' },
  IngestionSeconds: { unit: 'Seconds', dimension: 'memoryType' },
  IndexBuildSeconds: { unit: 'Seconds', dimension: 'memoryType' },
  IndexMergeSeconds: { unit: 'Seconds', dimension: 'memoryType' },
  IndexBytes: { unit: 'Bytes', dimension: 'memoryType' },
  RetrievalMs: { unit: 'Milliseconds', dimension: 'memoryType' },
  Reranks: { unit: 'Count', dimension: null },
  RerankFallbacks: { unit: 'Count', dimension: null },
  RerankMs: { unit: 'Milliseconds', dimension: null },
  ConversationSyncs: { unit: 'Count', dimension: null },
  ConversationSyncLagSeconds: { unit: 'Seconds', dimension: null },
  WebhookDeliveries: { unit: 'Count', dimension: null },
  WebhookRetries: { unit: 'Count', dimension: null },
  WebhookDead: { unit: 'Count', dimension: null },
  RateLimited: { unit: 'Count', dimension: null },
} as const;

export type MetricName = keyof typeof METRICS;
export type MetricUnit = (typeof METRICS)[MetricName]['unit'];

export interface MetricPoint {
  name: MetricName;
  unit: MetricUnit;
  value: number;
  /** The value of the metric's dimension (METRICS[name].dimension), when it has one. */
  dimension?: string;
  /** Searchable in the logs, never a dimension (account ids, memory ids, ...). */
  properties?: Record<string, string | number>;
}

export interface MetricSink {
  record(point: MetricPoint): void;
}

const sinks = new Set<MetricSink>();

/** Adds a sink; answers a function that removes it again. */
export function addMetricSink(sink: MetricSink): () => void {
  sinks.add(sink);
  return () => sinks.delete(sink);
}

/** Records one value of `name`; a sink that fails is never the caller's problem. */
export function emitMetric(
  name: MetricName,
  value: number,
  options: { dimension?: string; properties?: Record<string, string | number> } = {},
): void {
  const point: MetricPoint = { name, unit: METRICS[name].unit, value, ...options };
  for (const sink of sinks) {
    try {
      sink.record(point);
    } catch {
      // telemetry must not fail the work it describes
    }
  }
}
