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
export const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: 'kmem' });
export const tracer = new Tracer({ serviceName: 'kmem' });
