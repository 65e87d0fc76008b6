/**
 * API key lifecycle through the operator command against a running runtime: list, create, rotate (the
 * bootstrap key included), revoke; a revoked key stops working within the auth cache time and
 * KMEM_API_KEY cannot bring it back. Operator-chosen keys are 32 characters at least. A changed KMEM_API_KEY
 * revokes the previous bootstrap key, and at the default auth cache time (5 s) a key revoked by another
 * process stops working within about 5 s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../functions/config';
import { lookupIdOf } from '../../functions/core/api-keys';
import type { Runtime } from '../../functions/local/runtime';
import { kmemAccounts } from '../support/kmem-cli';

const BOOTSTRAP = 'kmem_bootstrap_key_for_lifecycle_test_0123';
const dataDir = mkdtempSync(join(tmpdir(), 'kmem-keys-'));
let runtime: Runtime;

const startHere = async () => {
  const { startRuntime } = await import('../../functions/local/runtime');
  return startRuntime({ settings: { KMEM_DATA_DIR: dataDir, KMEM_PORT: '0', KMEM_API_KEY: BOOTSTRAP, KMEM_AUTH_CACHE_SECONDS: '1' } });
};

/** The operator command on this file's data directory, which must succeed: its stdout lines. */
async function kmemIn(dir: string, ...args: string[]): Promise<string[]> {
  const { code, stdout, stderr } = await kmemAccounts(dir, ...args);
  if (code !== 0) throw new Error(`kmem accounts ${args.join(' ')} exited ${code}: ${stderr}`);
  return stdout;
}

const kmem = (...args: string[]) => kmemIn(dataDir, ...args);

const statusWith = async (key: string) => (await fetch(`${runtime.url}/users/list`, { headers: { 'X-API-Key': key } })).status;

/** Polls until the key answers `status` (revocation reaches warm caches within their time). */
async function untilStatus(key: string, status: number): Promise<number> {
  const deadline = Date.now() + 3_000;
  let seen = await statusWith(key);
  while (seen !== status && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    seen = await statusWith(key);
  }
  return seen;
}

beforeAll(async () => {
  runtime = await startHere();
});
afterAll(async () => {
  await runtime?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('API key lifecycle', () => {
  it('lists, creates, rotates the bootstrap key and revokes, effective within the cache time', async () => {
    const created = (await kmem('keys', 'create', 'default')).at(-1) as string;
    expect(await statusWith(created)).toBe(200);

    const rotated = (await kmem('keys', 'rotate', 'default', lookupIdOf(BOOTSTRAP))).at(-1) as string;
    expect(await untilStatus(BOOTSTRAP, 403)).toBe(403);
    expect(await statusWith(rotated)).toBe(200);

    await kmem('keys', 'revoke', 'default', lookupIdOf(created));
    expect(await untilStatus(created, 403)).toBe(403);
    // one listing shows it all (a process of the command is seconds on a loaded machine): ids, never keys
    const listed = await kmem('keys', 'list', 'default');
    const ids = [BOOTSTRAP, created, rotated].map(lookupIdOf);
    expect(listed.map((line) => line.split(' ')[0])).toEqual(expect.arrayContaining(ids));
    for (const key of [BOOTSTRAP, created, rotated]) expect(listed.join('\n')).not.toContain(key);
    expect(listed.find((line) => line.startsWith(lookupIdOf(created)))).toMatch(/revoked \d{4}-/);
    expect(listed.find((line) => line.startsWith(lookupIdOf(BOOTSTRAP)))).toMatch(/revoked \d{4}-/);
    expect(listed.find((line) => line.startsWith(lookupIdOf(rotated)))).not.toMatch(/revoked/);
  }, 60_000);

  it('will not start again with a revoked KMEM_API_KEY', async () => {
    await runtime.stop();
    await expect(startHere()).rejects.toThrow(/KMEM_API_KEY: was revoked/);
    runtime = undefined as unknown as Runtime;
  });

  it('refuses an operator key shorter than 32 characters', () => {
    expect(() => loadConfig({ KMEM_API_KEY: 'dev-key-change-me' })).toThrow(/KMEM_API_KEY: must be at least 32 characters/);
  });
});

describe('the bootstrap key and the auth cache', () => {
  const FIRST = 'kmem_first_bootstrap_key_for_rotation_0123';
  const SECOND = 'kmem_second_bootstrap_key_for_rotation_456';
  const rotationDir = mkdtempSync(join(tmpdir(), 'kmem-bootstrap-'));
  let running: Runtime | undefined;
  /** A runtime with the auth cache at its default time. */
  const startWith = async (key: string) => {
    const { startRuntime } = await import('../../functions/local/runtime');
    return startRuntime({ settings: { KMEM_DATA_DIR: rotationDir, KMEM_PORT: '0', KMEM_API_KEY: key } });
  };
  const status = async (key: string) => (await fetch(`${running?.url}/account`, { headers: { 'X-API-Key': key } })).status;
  afterAll(async () => {
    await running?.stop();
    rmSync(rotationDir, { recursive: true, force: true });
  });

  it('revokes the previous bootstrap key when KMEM_API_KEY changes', async () => {
    running = await startWith(FIRST);
    expect(await status(FIRST)).toBe(200);
    await running.stop();
    running = await startWith(SECOND);
    expect(await status(SECOND)).toBe(200);
    expect(await status(FIRST)).toBe(403);
    await running.stop();
    running = await startWith(SECOND); // the same key again changes nothing
    expect(await status(SECOND)).toBe(200);
  }, 60_000);

  it('stops accepting a key revoked by another process within about 5 s', async () => {
    const created = (await kmemIn(rotationDir, 'keys', 'create', 'default')).at(-1) as string;
    expect(await status(created)).toBe(200); // now cached by the runtime
    await kmemIn(rotationDir, 'keys', 'revoke', 'default', lookupIdOf(created));
    const revokedAt = Date.now();
    while ((await status(created)) === 200 && Date.now() - revokedAt < 10_000) await new Promise((r) => setTimeout(r, 100));
    expect(await status(created)).toBe(403);
    expect(Date.now() - revokedAt).toBeLessThan(6_000);
  }, 60_000);
});
