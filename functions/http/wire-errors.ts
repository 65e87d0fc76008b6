/** The one place errors become wire answers: status code, body shape, safe message. */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { type ErrorKind, KmemError } from '../core/errors';
import type { ErrorShape } from './route-spec';

const WIRE: Record<ErrorKind, { statusCode: number; status: string }> = {
  bad_request: { statusCode: 400, status: 'bad_request' },
  unauthorized: { statusCode: 401, status: 'unauthorized' },
  forbidden: { statusCode: 403, status: 'forbidden' },
  not_found: { statusCode: 404, status: 'not_found' },
  payload_too_large: { statusCode: 413, status: 'bad_request' },
  rate_limited: { statusCode: 429, status: 'rate_limited' },
  timed_out: { statusCode: 504, status: 'error' },
  internal: { statusCode: 500, status: 'error' },
};

export interface WireContext {
  shape: ErrorShape;
  list: boolean;
  requestId: string;
}

/** Whether the error is ours to explain (expected) or a failure to log with its cause. */
export function isExpected(error: unknown): error is KmemError {
  return error instanceof KmemError && error.kind !== 'internal';
}

export function toWire(error: unknown, context: WireContext): APIGatewayProxyResult {
  const kind: ErrorKind = error instanceof KmemError ? error.kind : 'internal';
  const { statusCode } = WIRE[kind];
  const status = kind === 'internal' && context.list ? 'internal server error' : WIRE[kind].status;
  const message = isExpected(error) ? error.message : `internal error; quote request id ${context.requestId} when reporting it`;
  const data = isExpected(error) ? error.data : undefined;
  const body = context.shape === 'detail' ? { detail: message } : { error: message, status, ...(data ? { data } : {}) };
  const answer = json(statusCode, body);
  const retryAfter = kind === 'rate_limited' ? data?.retryAfterSeconds : undefined;
  return typeof retryAfter === 'number' ? { ...answer, headers: { ...answer.headers, 'retry-after': String(retryAfter) } } : answer;
}

export function json(statusCode: number, body: unknown): APIGatewayProxyResult {
  return { statusCode, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}
