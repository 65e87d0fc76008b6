/**
 * Time in queries beside replies to asking turns, over HTTP: a turn that asks about a time the query names
 * ("are we going camping this summer?", in April) ranks, and its reply, written in April about something
 * else, comes after it at its match but its own time: the June turn the query is about ranks above it.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { get, post, type Json } from '../support/api';

const SESSIONS: ReadonlyArray<ReadonlyArray<[string, 'user' | 'assistant', string]>> = [
  [
    ['2023-04-20T10:00:00Z', 'user', 'My two kids keep asking me about their plans all day long. Are we going camping this summer?'],
    ['2023-04-20T10:00:01Z', 'assistant', 'I have been researching adoption agencies all week.'],
  ],
  [['2023-06-27T10:00:00Z', 'user', 'Camping with the kids in the hills!']],
  [['2023-10-02T10:00:00Z', 'user', 'Good morning! How have you been?']],
];
let memoryId = '';

const ask = async (query: string): Promise<string[]> => {
  const answer = await get(`/memory/?memoryID=${memoryId}&topK=3&query=${encodeURIComponent(query)}`);
  expect(answer.status).toBe(200);
  return (answer.body.payload as Json[]).map((item) => item.content as string);
};

beforeAll(async () => {
  const customerUserID = `camper-${randomUUID()}`;
  const sessions: string[] = [];
  for (const turns of SESSIONS) {
    const sessionID = (await post('/sessions/create', { sessionID: `camp-${randomUUID()}` })).body.data.id as string;
    for (const [createdAt, role, content] of turns) {
      expect((await post('/messages/create', { sessionID, role, content, createdAt, customerUserID })).status).toBe(200);
    }
    sessions.push(sessionID);
  }
  memoryId = (await post('/memories/create', { name: 'camping', memoryType: 'vector' })).body.data.id as string;
  await post('/memories/add-sessions', { memoryID: memoryId, sessions });
  const deadline = Date.now() + 150_000;
  while ((await get(`/memories/get/${memoryId}`)).body.data.chunkCount !== 4) {
    if (Date.now() > deadline) throw new Error('the conversation was not indexed');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 180_000);

describe('replies beside asking turns, in a query that names a time', () => {
  it('rank the turn of the named time above the reply to a question that only asked about it', async () => {
    const answer = await ask('When did we go camping with the kids in June?');
    expect(answer[0]).toMatch(/going camping this summer\?/);
    expect(answer[1]).toMatch(/in the hills/);
    expect(answer[2]).toMatch(/adoption agencies/);
  });

  it('keep the reply right after its question when the query names no time', async () => {
    const answer = await ask('are we going camping with the kids');
    const asking = answer.findIndex((content) => /going camping this summer\?/.test(content));
    expect(asking).toBeGreaterThanOrEqual(0);
    expect(answer[asking + 1]).toMatch(/adoption agencies/);
  });
});
