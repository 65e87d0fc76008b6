/**
 * Per-account request rate limits: a fixed one-minute window counted in the table, so the limit holds
 * across every warm container on AWS and behaves the same on the local runtime. A request past the
 * limit is `rate_limited` (429) with the seconds until the window turns.
 */
import { RateLimitedError } from '../errors';
import { emitMetric } from '../metrics';
import type { Clock, RequestCounter } from '../ports';

export interface RateLimitDeps {
  requestCounter: RequestCounter;
  clock: Clock;
  config: { limits: { requestsPerMinute: number } };
}

const WINDOW_MS = 60_000;

export async function enforceRateLimit(deps: RateLimitDeps, accountId: string): Promise<void> {
  const limit = deps.config.limits.requestsPerMinute;
  if (limit === 0) return;
  const now = deps.clock.now().getTime();
  const window = Math.floor(now / WINDOW_MS);
  const expiresAt = Math.ceil(((window + 2) * WINDOW_MS) / 1000);
  const count = await deps.requestCounter.count(accountId, window, expiresAt);
  if (count <= limit) return;
  emitMetric('RateLimited', 1, { properties: { accountId, count } });
  const retryAfterSeconds = Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - now) / 1000));
  throw new RateLimitedError(`rate limit: at most ${limit} requests a minute per account; try again in ${retryAfterSeconds} s`, {
    data: { limit, retryAfterSeconds },
  });
}
