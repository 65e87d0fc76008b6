/**
 * Powertools logger, metrics and tracer, created once per container and shared by every module in it.
 * The service name comes from POWERTOOLS_SERVICE_NAME (set per function by the stack); the local runtime
 * turns metrics and tracing off and keeps logs at warn unless POWERTOOLS_LOG_LEVEL says otherwise.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, type MetricUnit } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { addMetricSink, METRICS, METRICS_NAMESPACE, type MetricPoint } from './core/metrics';

export const logger = new Logger({ serviceName: 'kmem' });
/**
 * Metrics' own warnings, less "No application metrics to publish": on the local runtime many invocations
 * share one Metrics object, so one publishes another's metrics and the other then finds none.
 */
const metricsWarnings = {
  ...console,
  warn: (...args: unknown[]) => {
    if (!String(args[0]).startsWith('No application metrics to publish')) console.warn(...args);
  },
};

export const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: 'kmem', logger: metricsWarnings });
export const tracer = new Tracer({ serviceName: 'kmem' });

/**
 * Points of the metrics port as EMF: every point counts in the metric's total (service dimension only,
 * what the alarms read), and a point with a dimension value is also written on its own with that
 * dimension (what the dashboard breaks down by kind or memory type). Per-account values are metadata.
 */
function recordPoint(point: MetricPoint): void {
  const unit = point.unit as (typeof MetricUnit)[keyof typeof MetricUnit];
  metrics.addMetric(point.name, unit, point.value);
  const dimension = METRICS[point.name].dimension;
  if (!dimension || point.dimension === undefined) return;
  const single = dimensionedLine();
  try {
    single.addDimension(dimension, point.dimension);
    for (const [name, value] of Object.entries(point.properties ?? {})) single.addMetadata(name, String(value));
    single.addMetric(point.name, unit, point.value); // a single-metric instance writes its line here
  } finally {
    // a line clears what it wrote; a point refused half-way must not leave its values to the next line
    single.clearDimensions();
    single.clearMetadata();
    single.clearMetrics();
  }
}

let dimensioned: Metrics | undefined;

/**
 * The single-metric instance that writes dimensioned lines, made once: `metrics.singleMetric()` makes a
 * new one per call, which reads the environment and builds a console each time (a quarter of a
 * millisecond per warm query). Each line clears what it wrote, so reusing it writes the same lines.
 */
function dimensionedLine(): Metrics {
  dimensioned ??= metrics.singleMetric();
  return dimensioned;
}

addMetricSink({ record: recordPoint });
