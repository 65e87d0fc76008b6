/**
 * A runtime as a user starts it for others to reach (KMEM_HOST other than 127.0.0.1): its unauthenticated
 * stores still listen on 127.0.0.1 only, and its data directory is the owner's alone.
 */
import { lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../functions/local/runtime';

const KEY = 'kmem_private_runtime_test_key_0123456789';
const dataDir = join(mkdtempSync(join(tmpdir(), 'kmem-private-')), 'data');
let runtime: Runtime;

beforeAll(async () => {
  const { startRuntime } = await import('../../functions/local/runtime');
  runtime = await startRuntime({
    settings: { KMEM_DATA_DIR: dataDir, KMEM_HOST: '127.0.0.2', KMEM_PORT: '0', KMEM_API_KEY: KEY },
  });
});
afterAll(async () => {
  await runtime?.stop();
  rmSync(join(dataDir, '..'), { recursive: true, force: true });
});

const reachable = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host, port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

/** Every path under `dir` whose mode lets anyone but the owner in. */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    const stat = lstatSync(path);
    if (stat.mode & 0o077) found.push(`${path} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dir);
  return found;
}

describe('a runtime reachable from the network', () => {
  it('keeps the stores on 127.0.0.1 and the data directory private', async () => {
    expect(runtime.url).toMatch(/^http:\/\/127\.0\.0\.2:/);
    for (const endpoint of [runtime.config.dynamodbEndpoint, runtime.config.s3Endpoint]) {
      const { hostname, port } = new URL(endpoint ?? '');
      expect(hostname).toBe('127.0.0.1');
      expect(await reachable('127.0.0.2', Number(port))).toBe(false);
    }
    const form = new FormData();
    form.append('file', new Blob(['a private note']), 'note.txt');
    const uploaded = await fetch(`${runtime.url}/files/upload`, { method: 'POST', headers: { 'X-API-Key': KEY }, body: form });
    expect(uploaded.status).toBe(200);
    expect(openToOthers(dataDir)).toEqual([]);
  });
});
