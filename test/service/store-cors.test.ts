/**
 * The local S3 store takes the console's uploads (PUT to a presigned address) from the runtime's own
 * origin only: a preflight from any other web page is refused, so a page the operator visits cannot
 * overwrite objects (s3rver checks no signature).
 */
import { describe, expect, it } from 'vitest';
import { env, post } from '../support/api';

async function preflight(address: string, origin: string): Promise<Response> {
  return fetch(address, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type' },
  });
}

describe('the local S3 store and other origins', () => {
  it("allows a presigned PUT's preflight from the runtime's origin, and refuses it from another", async () => {
    const granted = await post('/files/upload-url', { name: 'cors.txt', size: 5 });
    expect(granted.status).toBe(200);
    const address = granted.body.data.uploadUrl as string;
    expect(new URL(address).origin).toBe(new URL(env().s3Endpoint).origin);

    const own = await preflight(address, new URL(env().url).origin);
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-methods')).toContain('PUT');

    const evil = await preflight(address, 'https://evil.example');
    expect(evil.status).toBe(403);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    const other = await preflight(address, 'http://127.0.0.1:1');
    expect(other.status).toBe(403);
  });
});
