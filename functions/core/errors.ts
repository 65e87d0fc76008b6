/**
 * The one error tree. Use cases throw these; functions/http/wire-errors.ts maps them to the wire in one place.
 * Messages are safe to show a client: they name the field and the problem, never internals.
 */
export type ErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'payload_too_large'
  | 'rate_limited'
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

/** A failure of ours; the client sees a generic message, operators see the cause in the logs. */
export class InternalError extends KmemError {
  readonly kind = 'internal';
}

/** Raised by a conditional write that lost: the use case decides what it means for the client. */
export class ConflictError extends Error {
  override readonly name = 'ConflictError';
}
