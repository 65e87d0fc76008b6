/**
 * AWS SDK failures (Bedrock, Comprehend) as `ServiceCallError`s: throttling, server errors,
 * time-outs and broken connections are retryable; validation, access and not-found errors are not.
 */
import { ServiceCallError } from './retry';

const RETRYABLE_NAMES = new Set([
  'ThrottlingException',
  'TooManyRequestsException',
  'ServiceUnavailableException',
  'ServiceUnavailable',
  'InternalServerException',
  'InternalServerError',
  'InternalFailure',
  'ModelNotReadyException',
  'ModelTimeoutException',
  'RequestTimeout',
  'RequestTimeoutException',
  'TimeoutError',
]);
const RETRYABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

interface SdkErrorShape {
  name?: string;
  code?: string;
  message?: string;
  $retryable?: unknown;
  $metadata?: { httpStatusCode?: number };
}

/** Whether an SDK error may pass on another try. */
export function isRetryableAwsError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const shape = error as SdkErrorShape;
  if (shape.$retryable) return true;
  if (shape.name !== undefined && RETRYABLE_NAMES.has(shape.name)) return true;
  if (shape.code !== undefined && RETRYABLE_CODES.has(shape.code)) return true;
  const status = shape.$metadata?.httpStatusCode;
  return status !== undefined && (status >= 500 || status === 429);
}

/** "Amazon Bedrock Converse failed (ThrottlingException, HTTP 429): Too many requests". */
export function awsCallError(service: string, error: unknown): ServiceCallError {
  const shape = (typeof error === 'object' && error !== null ? error : {}) as SdkErrorShape;
  const status = shape.$metadata?.httpStatusCode;
  const detail = [shape.name, status === undefined ? undefined : `HTTP ${status}`].filter(Boolean).join(', ');
  const message = `${service} failed${detail ? ` (${detail})` : ''}: ${shape.message ?? String(error)}`;
  return new ServiceCallError(message, { retryable: isRetryableAwsError(error), cause: error });
}
