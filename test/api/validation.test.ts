import { describe, expect, it } from 'vitest';
import { call, env, type RawBody } from '../support/api';

const raw = (body: RawBody, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  call('POST', '/users/create', { rawBody: body, headers });

describe('request validation', () => {
  it('names malformed JSON', async () => {
    const answer = await raw('{"email": ');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: expect.stringMatching(/^body: is not valid JSON/), status: 'bad_request' });
  });

  it('names invalid UTF-8', async () => {
    const bytes = Buffer.concat([Buffer.from('{"email":"a@b.co","firstName":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    const answer = await raw(bytes);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('body: is not valid UTF-8');
  });

  it('answers 413 bad_request for an oversized body', async () => {
    const big = JSON.stringify({ email: 'a@b.co', firstName: 'x'.repeat(300 * 1024) });
    const answer = await raw(big);
    expect(answer.status).toBe(413);
    expect(answer.body.status).toBe('bad_request');
    expect(answer.body.error).toMatch(/^body: /);
  });

  it('requires a body where one is expected', async () => {
    const answer = await call('POST', '/users/create', {});
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/^body: /);
  });

  it('never leaks a stack trace', async () => {
    const answers = await Promise.all([
      raw('{{{{'),
      raw(Buffer.from([0xff, 0xfe, 0x00])),
      call('GET', '/users/get/%E0%A4%A', {}),
      call('GET', `/users/get/${'x'.repeat(300)}`, {}),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(JSON.stringify(answer.body)).not.toMatch(/at .*\.(ts|js):\d+/);
    }
    expect(env().url).toMatch(/^http:\/\/127\.0\.0\.1:/);
  });
});
