/**
 * The S3 Vectors errors the double answers, as the REST JSON protocol carries them: the HTTP status, the
 * error's name in `x-amzn-errortype`, and `{message}` (plus `fieldList` for a ValidationException) in the
 * body, with the statuses of the SDK's own error shapes (@aws-sdk/client-s3vectors, schemas_0.js).
 */

export type ErrorName =
  | 'AccessDeniedException'
  | 'ConflictException'
  | 'InternalServerException'
  | 'NotFoundException'
  | 'RequestTimeoutException'
  | 'ServiceQuotaExceededException'
  | 'ServiceUnavailableException'
  | 'TooManyRequestsException'
  | 'ValidationException';

const STATUS: Record<ErrorName, number> = {
  AccessDeniedException: 403,
  ConflictException: 409,
  InternalServerException: 500,
  NotFoundException: 404,
  RequestTimeoutException: 408,
  ServiceQuotaExceededException: 402,
  ServiceUnavailableException: 503,
  TooManyRequestsException: 429,
  ValidationException: 400,
};

/** An error answer: thrown anywhere in an operation, written by the server. */
export class DoubleError extends Error {
  readonly status: number;

  constructor(
    readonly errorName: ErrorName,
    message: string,
    readonly path?: string,
  ) {
    super(message);
    this.status = STATUS[errorName];
  }

  body(): Record<string, unknown> {
    const fieldList = this.errorName === 'ValidationException' && this.path ? [{ path: this.path, message: this.message }] : undefined;
    return { message: this.message, ...(fieldList ? { fieldList } : {}) };
  }
}

/** A ValidationException naming the field. */
export const invalid = (path: string, message: string): DoubleError => new DoubleError('ValidationException', `${path}: ${message}`, path);
