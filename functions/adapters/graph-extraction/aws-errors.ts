/**
 * AWS SDK failures (Bedrock, Comprehend) as `ServiceCallError`s, retryable as functions/adapters/aws-errors.ts
 * says; validation, access and not-found errors are not.
 */
import { isRetryableAwsError, type SdkErrorShape } from '../aws-errors';
import { ServiceCallError } from './retry';

/** "Amazon Bedrock Converse failed (ThrottlingException, HTTP 429): Too many requests". */
export function awsCallError(service: string, error: unknown): ServiceCallError {
  const shape = (typeof error === 'object' && error !== null ? error : {}) as SdkErrorShape;
  const status = shape.$metadata?.httpStatusCode;
  const detail = [shape.name, status === undefined ? undefined : `HTTP ${status}`].filter(Boolean).join(', ');
  const message = `${service} failed${detail ? ` (${detail})` : ''}: ${shape.message ?? String(error)}`;
  return new ServiceCallError(message, { retryable: isRetryableAwsError(error), cause: error });
}
