/**
 * Time in queries over HTTP: a conversation memory whose messages say much the same at different times;
 * a query that names a time ranks the messages of that time first, relative expressions resolved against
 * the conversation's latest message. A query without a time ranks as before. GET /messages/search weighs
 * time the same way, relative expressions resolved against the latest message it may answer.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { get, post, type Json } from '../support/api';

const HISTORY: ReadonlyArray<[string, string]> = [
  ['2022-08-14T10:00:00Z', 'I went hiking in the hills with my brother and we had a picnic.'],
  ['2023-02-11T10:00:00Z', 'I went hiking in the snow with my brother and we had hot soup.'],
  ['2023-05-20T10:00:00Z', 'I went hiking by the lake with my brother and we had a picnic.'],
  ['2023-07-02T10:00:00Z', 'I went hiking in the forest with my brother and we had sandwiches.'],
  ['2023-10-19T10:00:00Z', 'I went hiking on the coast with my brother and we had fish.'],
  ['2023-10-20T09:00:00Z', 'Good morning! Any plans for today?'],
];
let memoryId = '';
const customerUserID = `hiker-${randomUUID()}`;

const ask = async (query: string): Promise<string[]> => {
  const answer = await get(`/memory/?memoryID=${memoryId}&topK=3&query=${encodeURIComponent(query)}`);
  expect(answer.status).toBe(200);
  return (answer.body.payload as Json[]).map((item) => item.content as string);
};

beforeAll(async () => {
  const sessionID = (await post('/sessions/create', { sessionID: `time-${randomUUID()}` })).body.data.id as string;
  for (const [createdAt, content] of HISTORY) {
    expect((await post('/messages/create', { sessionID, role: 'user', content, createdAt, customerUserID })).status).toBe(200);
  }
  memoryId = (await post('/memories/create', { name: 'hikes', memoryType: 'vector' })).body.data.id as string;
  await post('/memories/add-sessions', { memoryID: memoryId, sessions: [sessionID] });
  const deadline = Date.now() + 150_000;
  while ((await get(`/memories/get/${memoryId}`)).body.data.chunkCount !== HISTORY.length) {
    if (Date.now() > deadline) throw new Error('the conversation was not indexed');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  while ((await search('hiking brother')).length < HISTORY.length - 1) {
    if (Date.now() > deadline) throw new Error('the messages were not indexed for search');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 180_000);

const search = async (query: string): Promise<string[]> => {
  const answer = await get(`/messages/search?customerUserID=${customerUserID}&topK=10&query=${encodeURIComponent(query)}`);
  expect(answer.status).toBe(200);
  return (answer.body.messages as Json[]).map((message) => message.content as string);
};

describe('time in queries', () => {
  it('ranks the messages of the month a query names first', async () => {
    expect((await ask('what did I do last May'))[0]).toMatch(/by the lake/);
    expect((await ask('where did I go hiking in February 2023?'))[0]).toMatch(/in the snow/);
    expect((await ask('hiking with my brother in 2022'))[0]).toMatch(/in the hills/);
  });

  it('resolves relative expressions against the conversation, not the clock', async () => {
    expect((await ask('where did I go hiking yesterday?'))[0]).toMatch(/on the coast/); // the day before 20 Oct 2023
    expect((await ask('hiking last summer'))[0]).toMatch(/in the forest/); // June to August 2023
  });

  it('leaves a query without a time as it ranked', async () => {
    const plain = await ask('hiking with my brother and a picnic');
    expect(plain).toHaveLength(3);
    expect(plain.slice(0, 2).every((content) => /picnic/.test(content))).toBe(true);
  });
});

describe('time in message search', () => {
  it("ranks the messages of the time a query names first, relative to the customer's latest message", async () => {
    expect((await search('hiking with my brother last May'))[0]).toMatch(/by the lake/);
    expect((await search('hiking with my brother in 2022'))[0]).toMatch(/in the hills/);
    expect((await search('where did I go hiking yesterday?'))[0]).toMatch(/on the coast/);
    // a picnic is in two other messages: the day of the coast walk outweighs the word
    expect((await search('hiking with my brother and a picnic yesterday'))[0]).toMatch(/on the coast/);
  });

  it('leaves a query without a time as it ranked', async () => {
    const plain = await search('hiking with my brother and a picnic');
    expect(plain.slice(0, 2).every((content) => /picnic/.test(content))).toBe(true);
  });
});
