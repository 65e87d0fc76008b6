/**
 * AWS SDK failures as ExtractionErrors: bad input (an unsupported image, a rejected document) is
 * final; throttling, server errors, time-outs and broken connections are marked retryable.
 */
import { isRetryableAwsError } from '../aws-errors';
import { describeError, ExtractionError } from './errors';

/** "Amazon Textract could not read the image: ...", retryable when the failure is transient. */
export function serviceError(service: string, action: string, error: unknown): ExtractionError {
  if (error instanceof ExtractionError) return error;
  const retryable = isRetryableAwsError(error);
  const name = error instanceof Error && error.name !== 'Error' ? `${error.name}: ` : '';
  const temporary = retryable ? ' (a temporary failure; try again later)' : '';
  const reason = `${service} failed to ${action}${temporary}: ${name}${describeError(error)}`;
  return new ExtractionError(reason, { cause: error, retryable });
}
