/**
 * Which AWS SDK failures may pass on another try: throttling, server errors, time-outs and broken
 * connections. One list for every adapter that calls AWS (Textract, Transcribe, Bedrock, Comprehend).
 */
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
export interface SdkErrorShape {
  name?: string;
  code?: string;
  message?: string;
  $retryable?: unknown;
  $metadata?: { httpStatusCode?: number };
}

export function isRetryableAwsError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const shape = error as SdkErrorShape;
  if (shape.$retryable) return true;
  if (shape.name !== undefined && RETRYABLE_NAMES.has(shape.name)) return true;
  if (shape.code !== undefined && RETRYABLE_CODES.has(shape.code)) return true;
  const status = shape.$metadata?.httpStatusCode;
  return status !== undefined && (status >= 500 || status === 429);
}
