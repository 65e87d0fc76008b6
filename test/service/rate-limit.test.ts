/**
 * Per-account request rate limits on a runtime of its own (KMEM_RATE_LIMIT_PER_MINUTE=20): the account
 * over its limit is answered 429 `rate_limited` with Retry-After, another account is not, and the
 * unauthenticated health check never counts. The limit comes from the settings object the runtime was
 * started with, which reaches its handlers without being written into the process environment.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../functions/local/runtime';

const dataDir = mkdtempSync(join(tmpdir(), 'kmem-rate-'));
let runtime: Runtime;
let keys: string[];
let environment: { before: NodeJS.ProcessEnv; after: NodeJS.ProcessEnv };

beforeAll(async () => {
  const { startRuntime } = await import('../../functions/local/runtime');
  const { createAccount } = await import('../../functions/core/use-cases/accounts');
  const before = { ...process.env };
  runtime = await startRuntime({ settings: { KMEM_DATA_DIR: dataDir, KMEM_PORT: '0', KMEM_RATE_LIMIT_PER_MINUTE: '20' } });
  environment = { before, after: { ...process.env } };
  keys = [(await createAccount(runtime.deps, 'busy')).apiKey, (await createAccount(runtime.deps, 'quiet')).apiKey];
});
afterAll(async () => {
  await runtime?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const users = (key: string) => fetch(`${runtime.url}/users/list`, { headers: { 'X-API-Key': key } });

describe("the runtime's settings", () => {
  it('reach its handlers from the settings object, leaving the process environment as it was', () => {
    expect(runtime.config.limits.requestsPerMinute).toBe(20);
    expect(environment.after).toEqual(environment.before);
  });
});

describe('per-account rate limit', () => {
  it('answers 429 rate_limited past the limit, for that account only', async () => {
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute)); // all in one window
    const [busy, quiet] = keys as [string, string];
    for (let i = 0; i < 20; i++) expect((await users(busy)).status).toBe(200);
    const refused = await users(busy);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({
      status: 'rate_limited',
      error: expect.stringMatching(/^rate limit: at most 20 requests a minute/),
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await users(quiet)).status).toBe(200);
    for (let i = 0; i < 25; i++) expect((await fetch(`${runtime.url}/healthz`)).status).toBe(200);
  }, 30_000);
});
