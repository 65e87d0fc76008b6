import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { del, env, get, post } from '../support/api';

describe('sessions', () => {
  it('creates a session with the caller id, metadata and customer', async () => {
    const sessionID = `s-${randomUUID()}`;
    const created = await post('/sessions/create', {
      sessionID,
      customerUserID: 'cust-1',
      metadata: [{ key: 'channel', value: 'web' }],
    });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({
      id: sessionID,
      customerUserID: 'cust-1',
      metadata: [{ key: 'channel', value: 'web' }],
      deletedAt: null,
      endedAt: null,
    });
    expect(created.body.data.userID).toEqual(expect.any(String));
    const got = await get(`/sessions/get/${sessionID}`);
    expect(got.body.data).toEqual(created.body.data);
  });

  it('generates an id when none is given and refuses a duplicate id', async () => {
    const created = await post('/sessions/create', {});
    expect(created.body.data.id).toMatch(/^[0-9a-f-]{36}$/);
    const again = await post('/sessions/create', { sessionID: created.body.data.id });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatch(/^sessionID: /);
  });

  it('soft-deletes: the record stays readable with deletedAt, and deletes are idempotent', async () => {
    const { body } = await post('/sessions/create', {});
    const id = body.data.id as string;
    const removed = await del(`/sessions/delete/${id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.status).toBe('success');
    const got = await get(`/sessions/get/${id}`);
    expect(got.status).toBe(200);
    expect(got.body.data.deletedAt).toEqual(expect.any(String));
    const first = got.body.data.deletedAt;
    await del(`/sessions/delete/${id}`);
    expect((await get(`/sessions/get/${id}`)).body.data.deletedAt).toBe(first);
  });

  it('refuses bad metadata and ids naming the field', async () => {
    const badMeta = await post('/sessions/create', { metadata: [{ key: 'k' }] });
    expect(badMeta.status).toBe(400);
    expect(badMeta.body.error).toMatch(/^metadata\.0\.value: /);
    const badId = await post('/sessions/create', { sessionID: 'has/slash' });
    expect(badId.status).toBe(400);
    expect(badId.body.error).toMatch(/^sessionID: /);
  });

  it('answers not_found for unknown and foreign sessions', async () => {
    const { body } = await post('/sessions/create', {});
    expect((await get(`/sessions/get/${body.data.id}`, env().keyB)).status).toBe(404);
    expect((await del(`/sessions/delete/${body.data.id}`, env().keyB)).status).toBe(404);
    expect((await get('/sessions/get/does-not-exist')).status).toBe(404);
  });
});
