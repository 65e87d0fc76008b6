/**
 * Bounded retries with exponential backoff and jitter for service calls. A call fails with a
 * `ServiceCallError` that says whether it is worth another try (throttling, 5xx, time-outs, broken
 * connections) and, when the service said so, how long to wait (Retry-After).
 */
import { awsFailure } from '../aws-errors';

import { InternalError } from '../../core/errors';

export class ServiceCallError extends InternalError {
  override readonly name: string = 'ServiceCallError';
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: { retryable: boolean; retryAfterMs?: number; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.retryable = options.retryable;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** An AWS SDK failure (Bedrock, Comprehend) as a ServiceCallError, retryable as functions/adapters/aws-errors.ts says. */
export function awsCallError(service: string, error: unknown): ServiceCallError {
  const { message, retryable } = awsFailure(service, error);
  return new ServiceCallError(message, { retryable, cause: error });
}

export interface RetryPolicy {
  /** Tries per request, the first included; default 4. */
  readonly maxAttempts?: number;
  /** First backoff; doubles per try (with ±50% jitter); default 500 ms. */
  readonly baseDelayMs?: number;
  /** Longest wait between tries, Retry-After included; default 20 s. */
  readonly maxDelayMs?: number;
}

export interface ResolvedRetryPolicy {
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export function resolveRetryPolicy(policy: RetryPolicy = {}): ResolvedRetryPolicy {
  return {
    maxAttempts: Math.max(1, Math.floor(policy.maxAttempts ?? 4)),
    baseDelayMs: Math.max(0, policy.baseDelayMs ?? 500),
    maxDelayMs: Math.max(0, policy.maxDelayMs ?? 20_000),
  };
}

/** Counts the tries made, for the result's `calls`. */
export interface CallCounter {
  calls: number;
}

/** Runs `call` until it succeeds, fails for good, or the tries run out (then the last error is thrown). */
export async function withRetries<T>(call: () => Promise<T>, policy: ResolvedRetryPolicy, counter: CallCounter): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    counter.calls++;
    try {
      return await call();
    } catch (error) {
      const retryable = error instanceof ServiceCallError && error.retryable;
      if (!retryable || attempt >= policy.maxAttempts) throw error;
      await sleep(backoffMs(attempt, policy, error.retryAfterMs));
    }
  }
}

/** The wait before try `attempt + 1`: the service's Retry-After, else base × 2^(attempt-1) with jitter; capped. */
function backoffMs(attempt: number, policy: ResolvedRetryPolicy, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined && retryAfterMs >= 0) return Math.min(retryAfterMs, policy.maxDelayMs);
  const exponential = policy.baseDelayMs * 2 ** (attempt - 1);
  return Math.min(policy.maxDelayMs, exponential * (0.5 + Math.random()));
}

/** Retry-After as seconds or an HTTP date, or OpenAI's `retry-after-ms`; undefined when absent or unreadable. */
export function retryAfterFromHeaders(headers: Headers): number | undefined {
  const milliseconds = Number(headers.get('retry-after-ms'));
  if (headers.has('retry-after-ms') && Number.isFinite(milliseconds)) return milliseconds;
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds * 1_000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
