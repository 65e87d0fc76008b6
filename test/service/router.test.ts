/** The local router: a key is checked before a body is read, and a failure says why in the log. */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ForbiddenError } from '../../functions/core/errors';
import { catalog } from '../../functions/catalog';
import { createRouter } from '../../functions/local/router';
import { env } from '../support/api';

/** Sends the headers of a `declared`-byte upload and one small chunk; answers the status that comes back. */
function partialUpload(base: string, declared: number, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/files/upload`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(declared) },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on('error', (error) => (error.message.includes('socket hang up') ? undefined : reject(error)));
    req.write(Buffer.alloc(64 * 1024, 1));
    setTimeout(() => reject(new Error('no answer before the body was sent')), 5_000);
  });
}

describe('local router', () => {
  it('refuses an unknown key before the upload body arrives', async () => {
    expect(await partialUpload(env().url, 40 * 1024 * 1024, 'kmem_not_a_key_of_anyone_00000000')).toBe(403);
  });

  it('logs why a request failed with 500', async () => {
    const lines: string[] = [];
    const router = createRouter({
      routes: catalog,
      handlers: { meta: async () => Promise.reject(new Error('the disk caught fire')) },
      maxRequestBytes: 1024,
      authenticate: async (key) => {
        if (key !== 'good') throw new ForbiddenError('X-API-Key: is not a valid API key');
      },
      onError: (line) => lines.push(line),
    });
    const server = createServer(router);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/healthz`);
      expect(answer.status).toBe(500);
      expect(lines.join('\n')).toMatch(/GET \/healthz failed: Error: the disk caught fire/);
    } finally {
      server.close();
    }
  });
});
