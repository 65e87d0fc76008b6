import { describe, expect, it } from 'vitest';
import { call, env, get, post } from '../support/api';

describe('API keys', () => {
  it('answers 401 unauthorized when the header is missing, on every route', async () => {
    for (const [method, path] of [
      ['POST', '/users/create'],
      ['GET', '/users/list'],
      ['GET', '/users/get/x'],
      ['DELETE', '/users/delete/x'],
      ['POST', '/sessions/create'],
      ['GET', '/sessions/get/x'],
      ['DELETE', '/sessions/delete/x'],
      ['POST', '/messages/create'],
      ['GET', '/messages/list'],
      ['DELETE', '/messages/delete/x'],
    ] as const) {
      const answer = await call(method, path, { key: null, body: method === 'POST' ? {} : undefined });
      expect(answer.status, `${method} ${path}`).toBe(401);
      expect(answer.body).toEqual({ error: expect.stringContaining('X-API-Key'), status: 'unauthorized' });
    }
  });

  it('answers 403 forbidden for a wrong key, an empty-looking key and a near miss', async () => {
    const near = `${env().keyA.slice(0, -1)}${env().keyA.endsWith('A') ? 'B' : 'A'}`;
    for (const key of ['nope-nope-nope', near, 'kmem_' + 'x'.repeat(43)]) {
      const answer = await get('/users/list', key);
      expect(answer.status).toBe(403);
      expect(answer.body.status).toBe('forbidden');
    }
  });

  it('accepts the header in any letter case', async () => {
    const answer = await call('GET', '/users/list', { key: null, headers: { 'x-api-key': env().keyA } });
    expect(answer.status).toBe(200);
  });

  it('takes the key as a bearer token too, checked the same way', async () => {
    const bearer = (token: string) => call('GET', '/users/list', { key: null, headers: { authorization: `Bearer ${token}` } });
    expect((await bearer(env().keyA)).status).toBe(200);
    expect((await bearer('nope-nope-nope')).status).toBe(403);
    expect((await call('GET', '/users/list', { key: null, headers: { authorization: `Basic ${env().keyA}` } })).status).toBe(401);
  });

  it('serves health and the OpenAPI document without a key', async () => {
    expect((await get('/healthz', null)).status).toBe(200);
    const doc = await get('/openapi.json', null);
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.0.3');
    expect(Object.keys(doc.body.paths)).toContain('/messages/list');
  });

  it('answers unknown routes and methods in the error shape', async () => {
    const missing = await get('/nothing/here');
    expect(missing.status).toBe(404);
    expect(missing.body.status).toBe('not_found');
    const wrongMethod = await post('/users/list', {});
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body.status).toBe('bad_request');
  });
});
