import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedChunks } from '../support/published-index';
import { del, env, get, post, type Json } from '../support/api';
import { testDeps } from '../support/stores';

let stores: ReturnType<typeof testDeps>;
beforeAll(() => {
  stores = testDeps();
});
afterAll(() => stores.documentClient.destroy());

async function session(customer = 'cust-1', key?: string) {
  return (await post('/sessions/create', { customerUserID: customer }, key)).body.data;
}

async function say(sessionID: string, role: string, content: string, extra: Record<string, unknown> = {}, key?: string) {
  const answer = await post('/messages/create', { sessionID, role, content, ...extra }, key);
  if (answer.status !== 200) throw new Error(JSON.stringify(answer.body));
  return answer.body.data;
}

/** The message chunks in a memory's published index. */
async function indexedMessages(memory: { id: string; userID: string }): Promise<string[]> {
  const stored = await stores.memories.get(memory.userID, memory.id);
  if (!stored?.indexPrefix) return [];
  const chunks = await publishedChunks(stores.objects, stored);
  return chunks.filter((c) => !stored.excludedFileIds.includes(c.fileId)).flatMap((c) => (c.message ? [c.message.id] : []));
}

async function eventually(check: () => Promise<boolean>, what: string, tries = 150): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('conversation memory', () => {
  it('makes the messages of attached sessions, past and future, part of the memory', async () => {
    const s = await session();
    const early = await say(s.id, 'user', 'My cat Miso loves sardines.');
    const memory = (await post('/memories/create', { name: 'chat', memoryType: 'vector' })).body.data;
    const attached = await post('/memories/add-sessions', { memoryID: memory.id, sessions: [s.id] });
    expect(attached.body).toMatchObject({ status: 'success', data: [{ memoryID: memory.id, sessionID: s.id }] });
    await eventually(async () => (await indexedMessages(memory)).includes(early.id), 'the earlier message');

    const later = await say(s.id, 'assistant', 'Sardines are a fine treat for Miso.');
    await eventually(async () => (await indexedMessages(memory)).includes(later.id), 'the new message');

    expect((await del(`/messages/delete/${early.id}`)).status).toBe(200);
    await eventually(async () => !(await indexedMessages(memory)).includes(early.id), 'the deleted message to leave');

    const again = await post('/memories/add-sessions', { memoryID: memory.id, sessions: [s.id] });
    expect(again.body.error).toMatch(/already in memory/);
    expect((await post('/memories/remove-sessions', { memoryID: memory.id, sessions: [s.id] })).status).toBe(200);
    expect(await indexedMessages(memory)).toEqual([]);
    expect((await post('/memories/remove-sessions', { memoryID: memory.id, sessions: [s.id] })).status).toBe(404);
  });

  it('drops a soft-deleted session from its memories and refuses to attach it', async () => {
    const s = await session();
    const m = await say(s.id, 'user', 'The meeting moved to Thursday.');
    const memory = (await post('/memories/create', { name: 'chat', memoryType: 'vector' })).body.data;
    await post('/memories/add-sessions', { memoryID: memory.id, sessions: [s.id] });
    await eventually(async () => (await indexedMessages(memory)).includes(m.id), 'the message');
    await del(`/sessions/delete/${s.id}`);
    await eventually(async () => (await indexedMessages(memory)).length === 0, 'the deleted session to leave');
    const other = (await post('/memories/create', { name: 'chat2', memoryType: 'vector' })).body.data;
    const refused = await post('/memories/add-sessions', { memoryID: other.id, sessions: [s.id] });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/is deleted/);
    expect((await post('/memories/add-sessions', { memoryID: other.id, sessions: ['nope'] })).status).toBe(404);
    expect((await post('/memories/add-sessions', { memoryID: other.id, sessions: [s.id] }, env().keyB)).status).toBe(404);
  });

  it('answers conversation hits through GET /memory/ with their session as source, within after/before', async () => {
    const s = await session('time-traveller');
    const old = await say(s.id, 'user', 'We planted the cherry tree in the garden.', { createdAt: '2022-03-01T09:00:00Z' });
    const recent = await say(s.id, 'user', 'The cherry tree finally blossomed this spring.', { createdAt: '2024-04-01T09:00:00Z' });
    const memory = (await post('/memories/create', { name: 'diary', memoryType: 'vector' })).body.data;
    await post('/memories/add-sessions', { memoryID: memory.id, sessions: [s.id] });
    await eventually(async () => (await indexedMessages(memory)).length === 2, 'both messages');
    const ask = async (extra: string) => (await get(`/memory/?memoryID=${memory.id}&query=cherry%20tree&topK=5${extra}`)).body as Json;
    const all = await ask('');
    expect(all.payload).toHaveLength(2);
    expect(all.sources[0]).toMatchObject({ id: s.id, url: `/sessions/get/${s.id}` });
    const before = await ask('&before=2023-01-01T00:00:00Z');
    expect(before.payload.map((p: Json) => p.content)).toEqual([old.content]);
    const after = await ask('&after=2023-01-01T00:00:00Z');
    expect(after.payload.map((p: Json) => p.content)).toEqual([recent.content]);
  });

  it('ends sessions once', async () => {
    const s = await session();
    const ended = await post(`/sessions/end/${s.id}`, {});
    expect(ended.status).toBe(200);
    expect(ended.body.data.endedAt).toEqual(expect.any(String));
    const twice = await post(`/sessions/end/${s.id}`, {});
    expect(twice.body.data.endedAt).toBe(ended.body.data.endedAt);
    expect((await get(`/sessions/get/${s.id}`)).body.data.endedAt).toBe(ended.body.data.endedAt);
    expect((await post('/sessions/end/nope', {})).status).toBe(404);
    expect((await post(`/sessions/end/${s.id}`, {}, env().keyB)).status).toBe(404);
  });
});

describe('message search', () => {
  it('ranks messages best first, with session, customer, role and time filters', async () => {
    const s1 = await session('alice', env().keyB);
    const s2 = await session('bob', env().keyB);
    const hike = await say(s1.id, 'user', 'We hiked to the glacier lake last summer.', { createdAt: '2023-07-01T10:00:00Z' }, env().keyB);
    const bake = await say(s1.id, 'assistant', 'Baking bread needs patience.', { createdAt: '2023-08-01T10:00:00Z' }, env().keyB);
    const lake = await say(s2.id, 'user', 'The lake froze early this winter.', { createdAt: '2024-01-05T10:00:00Z' }, env().keyB);
    expect(hike.createdAt).toBe('2023-07-01T10:00:00.000Z');

    const search = async (q: string) => (await get(`/messages/search?${q}`, env().keyB)).body;
    const ids = async (q: string) => (await search(q)).messages.map((m: { id: string }) => m.id);
    // the account's message index follows writes within moments (the worker builds it)
    await eventually(async () => (await search('query=lake')).count === 3, 'the message index', 300);
    // ranked by the engine memory retrieval uses: the lexical matches first, then what the vectors find
    const all = await search('query=lake');
    expect(
      all.messages
        .slice(0, 2)
        .map((m: { id: string }) => m.id)
        .sort(),
    ).toEqual([hike.id, lake.id].sort());
    expect(all.messages[0].score).toBeGreaterThanOrEqual(all.messages[1].score);
    expect(all.messages[1].score).toBeGreaterThan(all.messages[2].score);
    // filters are exact: nothing outside them ranks at all
    expect(await ids(`query=lake&sessionID=${s2.id}`)).toEqual([lake.id]);
    expect((await ids('query=lake&customerUserID=alice')).sort()).toEqual([hike.id, bake.id].sort());
    expect((await ids('query=lake&customerUserID=alice'))[0]).toBe(hike.id);
    expect(await ids('query=bread&role=user')).not.toContain(bake.id);
    for (const m of (await search('query=bread&role=user')).messages) expect(m.role).toBe('user');
    expect(await ids('query=bread&role=assistant')).toEqual([bake.id]);
    expect(await ids('query=lake&after=2023-12-31T00:00:00Z')).toEqual([lake.id]);
    expect((await ids('query=lake&before=2023-12-31T00:00:00Z'))[0]).toBe(hike.id);
    expect(await ids('query=lake&before=2023-12-31T00:00:00Z')).not.toContain(lake.id);
    expect((await search('query=lake&topK=1')).count).toBe(1);

    expect((await get('/messages/search?query=lake')).body.messages.map((m: { id: string }) => m.id)).not.toContain(lake.id);
    await del(`/sessions/delete/${s2.id}`, env().keyB);
    expect(await ids('query=lake')).not.toContain(lake.id); // at once, before the index follows
    expect((await ids('query=lake'))[0]).toBe(hike.id);
  });

  it('refuses bad searches with the field named', async () => {
    const bad = async (q: string) => (await get(`/messages/search?${q}`)).body.error as string;
    expect(await bad('')).toMatch(/^query: is required/);
    expect(await bad('query=a&topK=0')).toMatch(/^topK: /);
    expect(await bad('query=a&topK=101')).toMatch(/^topK: /);
    expect(await bad('query=a&role=robot')).toMatch(/^role: /);
    expect(await bad('query=a&after=yesterday')).toMatch(/^after: /);
    expect(await bad('query=a&after=2024-01-02T00:00:00Z&before=2024-01-01T00:00:00Z')).toMatch(/^after: must be earlier/);
  });
});
