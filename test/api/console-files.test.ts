/** The local runtime serves the built console at /console/ (as CloudFront does on AWS) and nothing outside it. */
import { describe, expect, it } from 'vitest';
import { env } from '../support/api';

const fetchRaw = (path: string, init: RequestInit = {}) => fetch(`${env().url}${path}`, { redirect: 'manual', ...init });

describe('GET /console/', () => {
  it('serves index.html, then its hashed assets cached for good', async () => {
    const index = await fetchRaw('/console/');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const html = await index.text();
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetchRaw(script as string);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });

  it('answers with a strict Content-Security-Policy (uploads may go to the local object store) and cannot be framed', async () => {
    for (const path of ['/console/', '/console/assets/nope.js']) {
      const answer = await fetchRaw(path);
      const csp = answer.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("default-src 'self'; script-src 'self'; connect-src 'self' ");
      expect(csp, path).toContain("frame-ancestors 'none'; base-uri 'none'; form-action 'self'");
      expect(answer.headers.get('x-frame-options'), path).toBe('DENY');
      expect(answer.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
    const index = await fetchRaw('/console/');
    const connect = /connect-src ([^;]+)/.exec(index.headers.get('content-security-policy') ?? '')?.[1];
    expect(connect).toBe(`'self' ${new URL(env().s3Endpoint).origin}`);
  });

  it('redirects /console to /console/ and refuses what is not a read', async () => {
    const bare = await fetchRaw('/console');
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/console/');
    expect((await fetchRaw('/console/', { method: 'POST', body: 'x' })).status).toBe(405);
  });

  it('serves nothing outside the build', async () => {
    for (const path of ['/console/%2e%2e/package.json', '/console/..%2fpackage.json', '/console/assets/nope.js', '/console/%E0%A4%A']) {
      expect((await fetchRaw(path)).status, path).toBe(404);
    }
    expect((await fetchRaw('/consoles')).status).toBe(404); // an API path like any other
  });
});
