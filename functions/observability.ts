/**
 * Powertools logger, metrics and tracer, created once per container and shared by every module in it.
 * The service name comes from POWERTOOLS_SERVICE_NAME (set per function by the stack); the local runtime
 * turns metrics and tracing off and keeps logs at warn unless POWERTOOLS_LOG_LEVEL says otherwise.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';

export const METRICS_NAMESPACE = 'kmem';

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
