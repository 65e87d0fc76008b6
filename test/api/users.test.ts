import { describe, expect, it } from 'vitest';
import { del, env, get, listAll, post } from '../support/api';

describe('users', () => {
  it('creates, gets, lists and deletes a user', async () => {
    const created = await post('/users/create', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: '+44 20 7946 0000',
    });
    expect(created.status).toBe(200);
    expect(created.body.status).toBe('success');
    const user = created.body.data;
    expect(user).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', userID: user.id });
    expect(user.owner).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(user.createdAt).toISOString()).toBe(user.createdAt);

    const got = await get(`/users/get/${user.id}`);
    expect(got.status).toBe(200);
    expect(got.body.data).toMatchObject({ id: user.id, email: 'ada@example.com', owner: user.owner });
    expect(got.body.data.userID).toBeUndefined();

    const listed = await listAll('/users/list?limit=100', 'users');
    expect(listed.map((u) => u.id)).toContain(user.id);

    const removed = await del(`/users/delete/${user.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ status: 'success', message: expect.any(String) });
    expect((await get(`/users/get/${user.id}`)).status).toBe(404);
    expect((await del(`/users/delete/${user.id}`)).status).toBe(404);
  });

  it('refuses invalid users with a message naming the field', async () => {
    const noEmail = await post('/users/create', { firstName: 'A' });
    expect(noEmail.status).toBe(400);
    expect(noEmail.body).toEqual({ error: 'email: is required', status: 'bad_request' });
    const badEmail = await post('/users/create', { email: 'not-an-email' });
    expect(badEmail.body.error).toMatch(/^email: /);
    const badType = await post('/users/create', { email: 'a@b.co', firstName: 42 });
    expect(badType.status).toBe(400);
    expect(badType.body.error).toMatch(/^firstName: /);
    const notObject = await post('/users/create', [1, 2]);
    expect(notObject.status).toBe(400);
  });

  it('keeps accounts apart: another account cannot read or delete a user', async () => {
    const created = await post('/users/create', { email: 'private@example.com' });
    const id = created.body.data.id as string;
    expect((await get(`/users/get/${id}`, env().keyB)).status).toBe(404);
    expect((await del(`/users/delete/${id}`, env().keyB)).status).toBe(404);
    const theirs = await listAll('/users/list?limit=100', 'users', env().keyB);
    expect(theirs.map((u) => u.id)).not.toContain(id);
    expect((await get(`/users/get/${id}`)).status).toBe(200);
  });
});
