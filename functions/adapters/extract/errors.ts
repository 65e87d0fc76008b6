/**
 * The one error `extractText` throws. Its message is a reason a person understands ("the PDF is
 * encrypted"); the library error that caused it, if any, is kept as `cause` for the logs.
 */

export interface ExtractionErrorOptions {
  cause?: unknown;
  /** True when trying again later may succeed (a service throttled or timed out); false for bad content. */
  retryable?: boolean;
  /** True when the file broke a bound (size, pages, pixels, time, depth): counted as a hostile file refused. */
  refused?: boolean;
}

export class ExtractionError extends Error {
  override readonly name = 'ExtractionError';
  readonly retryable: boolean;
  readonly refused: boolean;

  constructor(reason: string, options: ExtractionErrorOptions = {}) {
    super(reason, options.cause === undefined ? undefined : { cause: options.cause });
    this.retryable = options.retryable ?? false;
    this.refused = options.refused ?? false;
  }
}

/** A short, single-line description of an unknown thrown value, for reasons and warnings. */
export function describeError(error: unknown): string {
  const text = error instanceof Error ? error.message : typeof error === 'string' ? error : String(error);
  const line = text.split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}
