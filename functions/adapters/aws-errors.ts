/**
 * AWS SDK failures, for every adapter that calls AWS (Textract, Transcribe, Bedrock, Comprehend): which
 * may pass on another try (throttling, server errors, time-outs, broken connections), and one wording
 * for what failed. Each caller wraps the result in its own error class (ExtractionError for file
 * extraction, ServiceCallError for graph extraction); the classification and the wording live only here.
 */
import { describeError } from './wording';

const RETRYABLE_NAMES = new Set([
  'ThrottlingException',
  'TooManyRequestsException',
  'ProvisionedThroughputExceededException',
  'LimitExceededException',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'InternalServerError',
  'InternalFailure',
  'InternalServerException',
  'ModelNotReadyException',
  'ModelTimeoutException',
  'RequestTimeout',
  'RequestTimeoutException',
  'TimeoutError',
  'SlowDown',
]);
const RETRYABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

/** The parts of an SDK error the classification and messages read. */
interface SdkErrorShape {
  name?: string;
  code?: string;
  message?: string;
  $retryable?: unknown;
  $metadata?: { httpStatusCode?: number };
}

function isRetryableAwsError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const shape = error as SdkErrorShape;
  if (shape.$retryable) return true;
  if (shape.name !== undefined && RETRYABLE_NAMES.has(shape.name)) return true;
  if (shape.code !== undefined && RETRYABLE_CODES.has(shape.code)) return true;
  const status = shape.$metadata?.httpStatusCode;
  return status !== undefined && (status >= 500 || status === 429);
}

export interface AwsFailure {
  /** "Amazon Textract failed to read the image (ThrottlingException, HTTP 429): Rate exceeded". */
  readonly message: string;
  readonly retryable: boolean;
}

/** What failed, in one line: the service, what it was asked (when given), the error's name and HTTP status, its message. */
export function awsFailure(service: string, error: unknown, action?: string): AwsFailure {
  const shape = (typeof error === 'object' && error !== null ? error : {}) as SdkErrorShape;
  const status = shape.$metadata?.httpStatusCode;
  const name = shape.name && shape.name !== 'Error' ? shape.name : undefined;
  const detail = [name, status === undefined ? undefined : `HTTP ${status}`].filter(Boolean).join(', ');
  const message = `${service} failed${action ? ` to ${action}` : ''}${detail ? ` (${detail})` : ''}: ${describeError(shape.message ?? error)}`;
  return { message, retryable: isRetryableAwsError(error) };
}
