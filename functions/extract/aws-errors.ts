/**
 * AWS SDK failures as ExtractionErrors: bad input (an unsupported image, a rejected document) is
 * final; throttling, server errors, time-outs and broken connections are marked retryable.
 */
import { describeError, ExtractionError } from './errors';

const RETRYABLE_NAMES = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'LimitExceededException',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'InternalServerError',
  'InternalFailure',
  'InternalServerException',
  'RequestTimeout',
  'RequestTimeoutException',
  'TimeoutError',
  'SlowDown',
]);
const RETRYABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

interface SdkErrorShape {
  name?: string;
  code?: string;
  $retryable?: unknown;
  $metadata?: { httpStatusCode?: number };
}

export function isRetryable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const shape = error as SdkErrorShape;
  if (shape.$retryable) return true;
  if (shape.name && RETRYABLE_NAMES.has(shape.name)) return true;
  if (shape.code && RETRYABLE_CODES.has(shape.code)) return true;
  const status = shape.$metadata?.httpStatusCode;
  return status !== undefined && (status >= 500 || status === 429);
}

/** "Amazon Textract could not read the image: ...", retryable when the failure is transient. */
export function serviceError(service: string, action: string, error: unknown): ExtractionError {
  if (error instanceof ExtractionError) return error;
  const retryable = isRetryable(error);
  const name = error instanceof Error && error.name !== 'Error' ? `${error.name}: ` : '';
  const temporary = retryable ? ' (a temporary failure; try again later)' : '';
  const reason = `${service} failed to ${action}${temporary}: ${name}${describeError(error)}`;
  return new ExtractionError(reason, { cause: error, retryable });
}
