import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { del, env, get, listAll, post } from '../support/api';

const ROLES = ['norole', 'system', 'assistant', 'user', 'function', 'tool'] as const;

describe('messages', () => {
  const sessionID = `m-${randomUUID()}`;
  const otherSession = `m-${randomUUID()}`;
  const customer = `cust-${randomUUID()}`;

  beforeAll(async () => {
    await post('/sessions/create', { sessionID, customerUserID: customer });
    await post('/sessions/create', { sessionID: otherSession });
  });

  /** A session of its own for a customer of its own, with one message of each role; answers the creates' answers. */
  async function sessionOfEveryRole() {
    const session = `m-${randomUUID()}`;
    const owner = `cust-${randomUUID()}`;
    await post('/sessions/create', { sessionID: session, customerUserID: owner });
    const answers = [];
    for (const role of ROLES) answers.push(await post('/messages/create', { sessionID: session, role, content: `said by ${role}` }));
    return { session, owner, answers };
  }

  it('creates messages with all six roles and a generated UUID', async () => {
    const { session, owner, answers } = await sessionOfEveryRole();
    for (const [i, role] of ROLES.entries()) {
      const answer = answers[i];
      expect(answer?.status).toBe(200);
      expect(answer?.body.data).toMatchObject({ sessionID: session, role, content: `said by ${role}`, customerUserID: owner });
      expect(answer?.body.data.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });

  it('keeps a supplied id and an imported createdAt, and refuses a duplicate id', async () => {
    const id = `msg-${randomUUID()}`;
    const answer = await post('/messages/create', {
      sessionID: otherSession,
      role: 'user',
      content: 'imported',
      id,
      customerUserID: 'importer',
      createdAt: '2023-05-01T10:00:00+02:00',
    });
    expect(answer.body.data).toMatchObject({ id, customerUserID: 'importer', createdAt: '2023-05-01T08:00:00.000Z' });
    const again = await post('/messages/create', { sessionID: otherSession, role: 'user', content: 'x', id });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatch(/^id: /);
  });

  it('filters by session, customer and role, in creation order', async () => {
    // messages of its own, in any order of the tests
    const { session, owner } = await sessionOfEveryRole();
    const importer = `importer-${randomUUID()}`;
    await post('/messages/create', {
      sessionID: otherSession,
      role: 'user',
      content: 'imported',
      customerUserID: importer,
      createdAt: '2023-05-01T10:00:00Z',
    });
    const inSession = await listAll(`/messages/list?sessionID=${session}&limit=4`, 'messages');
    expect(inSession.map((m) => m.role)).toEqual([...ROLES]);
    const byCustomer = await listAll(`/messages/list?customerUserID=${owner}`, 'messages');
    expect(byCustomer).toHaveLength(6);
    const tools = await listAll(`/messages/list?sessionID=${session}&role=tool`, 'messages');
    expect(tools.map((m) => m.content)).toEqual(['said by tool']);
    const both = await listAll(`/messages/list?sessionID=${session}&customerUserID=${owner}&role=user`, 'messages');
    expect(both).toHaveLength(1);
    const imported = await listAll(`/messages/list?customerUserID=${importer}&role=user`, 'messages');
    expect(imported.map((m) => m.content)).toEqual(['imported']);
  });

  it('refuses unknown roles, missing sessions and deleted sessions', async () => {
    const badRole = await post('/messages/create', { sessionID, role: 'robot', content: 'x' });
    expect(badRole.status).toBe(400);
    expect(badRole.body.error).toMatch(/^role: /);
    const badFilter = await get('/messages/list?role=robot');
    expect(badFilter.status).toBe(400);
    expect(badFilter.body.error).toMatch(/^role: /);
    const noSession = await post('/messages/create', { sessionID: 'nope', role: 'user', content: 'x' });
    expect(noSession.status).toBe(400);
    expect(noSession.body.error).toMatch(/^sessionID: /);
    const { body } = await post('/sessions/create', {});
    await del(`/sessions/delete/${body.data.id}`);
    const deleted = await post('/messages/create', { sessionID: body.data.id, role: 'user', content: 'x' });
    expect(deleted.status).toBe(400);
    expect(deleted.body.error).toContain('deleted');
  });

  it('deletes a message, and another account can neither see nor delete it', async () => {
    const { body } = await post('/messages/create', { sessionID, role: 'assistant', content: 'to delete' });
    const id = body.data.id as string;
    expect((await del(`/messages/delete/${id}`, env().keyB)).status).toBe(404);
    const foreignList = await get(`/messages/list?sessionID=${sessionID}`, env().keyB);
    expect(foreignList.body.messages).toEqual([]);
    expect((await del(`/messages/delete/${id}`)).status).toBe(200);
    expect((await del(`/messages/delete/${id}`)).status).toBe(404);
    const after = await listAll(`/messages/list?sessionID=${sessionID}`, 'messages');
    expect(after.map((m) => m.id)).not.toContain(id);
  });

  it('refuses a message in another account session', async () => {
    const answer = await post('/messages/create', { sessionID, role: 'user', content: 'x' }, env().keyB);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/^sessionID: .*does not exist/);
  });
});
