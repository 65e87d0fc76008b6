/** Errors as values: what a failed kmem call answers, in the API's own words. */
import type { components } from './generated/openapi';

export type ErrorBody = components['schemas']['Error'] | components['schemas']['RetrievalError'];

/** The API's error statuses, plus `network` when no answer came and `unexpected` for an answer kmem would not give. */
export type KmemErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'rate_limited'
  | 'error'
  | 'internal server error'
  | 'network'
  | 'unexpected';

const CODE_BY_STATUS: Record<number, KmemErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  413: 'bad_request',
  429: 'rate_limited',
  500: 'error',
};

export class KmemApiError extends Error {
  override readonly name = 'KmemApiError';

  constructor(
    /** HTTP status (0 when no answer came). */
    readonly status: number,
    readonly code: KmemErrorCode,
    message: string,
    /** The error body as answered, when there was one. */
    readonly body?: ErrorBody,
  ) {
    super(message);
  }

  /** The error of an answer: `{error, status}` bodies, or `{detail}` (GET /memory). */
  static fromAnswer(status: number, body: unknown): KmemApiError {
    const known = body as Partial<{ error: string; status: string; detail: string }> | undefined;
    const message = known?.error ?? known?.detail ?? `HTTP ${status}`;
    const code = (known?.status as KmemErrorCode | undefined) ?? CODE_BY_STATUS[status] ?? 'unexpected';
    return new KmemApiError(
      status,
      code,
      message,
      known?.error !== undefined || known?.detail !== undefined ? (body as ErrorBody) : undefined,
    );
  }
}

/** A call's outcome: the success body, or the error as a value (never thrown). */
export type KmemResult<T> = { ok: true; status: number; data: T } | { ok: false; status: number; error: KmemApiError };

/** The data of a result, or the error thrown: for scripts that prefer exceptions. */
export function unwrap<T>(result: KmemResult<T>): T {
  if (!result.ok) throw result.error;
  return result.data;
}
