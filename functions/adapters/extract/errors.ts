/**
 * The one error `extractText` throws. Its message is a reason a person understands ("the PDF is
 * encrypted"); the library error that caused it, if any, is kept as `cause` for the logs.
 */
import { awsFailure } from '../aws-errors';

import { InternalError } from '../../core/errors';

export interface ExtractionErrorOptions {
  cause?: unknown;
  /** True when trying again later may succeed (a service throttled or timed out); false for bad content. */
  retryable?: boolean;
  /** True when the file broke a bound (size, pages, pixels, time, depth): counted as a hostile file refused. */
  refused?: boolean;
}

export class ExtractionError extends InternalError {
  override readonly name: string = 'ExtractionError';
  readonly retryable: boolean;
  readonly refused: boolean;

  constructor(reason: string, options: ExtractionErrorOptions = {}) {
    super(reason, { cause: options.cause });
    this.retryable = options.retryable ?? false;
    this.refused = options.refused ?? false;
  }
}

/** An AWS service call's failure (functions/adapters/aws-errors.ts), retryable when it may pass, said to last a while otherwise. */
export function serviceError(service: string, action: string, error: unknown): ExtractionError {
  if (error instanceof ExtractionError) return error;
  const { message, retryable } = awsFailure(service, error, action);
  const temporary = retryable ? ' (a temporary failure; try again later)' : '';
  return new ExtractionError(`${message}${temporary}`, { cause: error, retryable });
}
