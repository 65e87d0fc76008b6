import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Data survives a restart: a second runtime on the same data directory serves what the first stored.
 * The runtimes start inside this test file's worker, apart from the shared test runtime.
 */
describe('local runtime restart', () => {
  it('keeps accounts, users, sessions and messages across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kmem-restart-'));
    const key = 'kmem_restart_test_key_0123456789';
    try {
      const first = await runOnce(dataDir, key, async (url) => {
        const headers = { 'X-API-Key': key, 'content-type': 'application/json' };
        const session = await fetch(`${url}/sessions/create`, { method: 'POST', headers, body: JSON.stringify({ sessionID: 'kept' }) });
        expect(session.status).toBe(200);
        const message = await fetch(`${url}/messages/create`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ sessionID: 'kept', role: 'user', content: 'remember me' }),
        });
        return ((await message.json()) as { data: { id: string } }).data.id;
      });
      const second = await runOnce(dataDir, key, async (url) => {
        const answer = await fetch(`${url}/messages/list?sessionID=kept`, { headers: { 'X-API-Key': key } });
        const body = (await answer.json()) as { messages: Array<{ id: string; content: string }> };
        return body.messages.map((m) => `${m.id}:${m.content}`).join(',');
      });
      expect(second).toBe(`${first}:remember me`);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

async function runOnce<T>(dataDir: string, key: string, use: (url: string) => Promise<T>): Promise<T> {
  const { startRuntime } = await import('../../functions/local/runtime');
  const runtime = await startRuntime({ settings: { KMEM_DATA_DIR: dataDir, KMEM_PORT: '0', KMEM_API_KEY: key } });
  try {
    return await use(runtime.url);
  } finally {
    await runtime.stop();
  }
}
