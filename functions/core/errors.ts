/**
 * The one error tree: every error class of the service extends KmemError, and functions/http/wire-errors.ts
 * maps them to the wire in one place by `kind`. Client errors (bad_request ... rate_limited) carry messages
 * safe to show a client: they name the field and the problem, never internals. Everything else is an
 * InternalError or one of its kinds below (a failure of ours or of a service we call): the client sees a
 * generic message with the request id; operators see the message and cause in the logs. The worker's own
 * failures (a file that cannot be processed, a service that may recover) are InternalErrors too: they are
 * recorded on the file or retried, never answered to a client.
 *
 * The engine (functions/engine) imports nothing of the service, so its one error, TokenizerNotLoadedError
 * (a programming error: the tokenizer was not loaded first), stays outside; the wire maps it, like any
 * error that is not a KmemError, as internal.
 */
export type ErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'payload_too_large'
  | 'rate_limited'
  | 'timed_out'
  | 'internal';

export abstract class KmemError extends Error {
  abstract readonly kind: ErrorKind;
  /** Extra data sent with the error body (the start-ingestion budget error uses it). */
  readonly data?: Record<string, unknown>;

  constructor(message: string, options?: { cause?: unknown; data?: Record<string, unknown> }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    if (options?.data) this.data = options.data;
  }
}

export class BadRequestError extends KmemError {
  readonly kind = 'bad_request';

  /** `field` is the dotted path of the offending input, when there is one. */
  static forField(field: string, problem: string): BadRequestError {
    return new BadRequestError(field ? `${field}: ${problem}` : problem);
  }
}

export class UnauthorizedError extends KmemError {
  readonly kind = 'unauthorized';
}

export class ForbiddenError extends KmemError {
  readonly kind = 'forbidden';
}

export class NotFoundError extends KmemError {
  readonly kind = 'not_found';

  static of(resource: string, id: string): NotFoundError {
    return new NotFoundError(`${resource} '${id}' was not found`);
  }
}

export class PayloadTooLargeError extends KmemError {
  readonly kind = 'payload_too_large';
}

export class RateLimitedError extends KmemError {
  readonly kind = 'rate_limited';
}

/** The function's time ran out before the route answered: nothing was half-written, the client may try again. */
export class TimedOutError extends KmemError {
  readonly kind = 'timed_out';
}

/** A failure of ours; the client sees a generic message, operators see the cause in the logs. */
export class InternalError extends KmemError {
  readonly kind = 'internal';
}

/** Raised by a conditional write that lost: the use case decides what it means for the client. */
export class ConflictError extends InternalError {
  override readonly name: string = 'ConflictError';
}

/** An item read from storage does not have the shape its kind must have (written by a bug, or by hand). */
export class StoredItemError extends InternalError {
  override readonly name: string = 'StoredItemError';
}
