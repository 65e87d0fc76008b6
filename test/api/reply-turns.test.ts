/**
 * Replies beside asking turns over HTTP: a conversation memory where the question's words are in a turn
 * that asks and the answer in the reply after it ("Which instruments do you play?" → "Clarinet, since I
 * was nine."). GET /memory/ answers both turns, the reply right after the turn that asks, at its score.
 * (GET /messages/search ranks as before: there, on LoCoMo, replies lowered temporal R@5.)
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { get, post, type Json } from '../support/api';

const SESSIONS: ReadonlyArray<ReadonlyArray<[string, string]>> = [
  [
    ['user', 'Mel: We went to the beach with the kids last weekend, they built a huge sandcastle.'],
    ['assistant', 'Caro: That sounds lovely, the sea must have been cold this early in the year.'],
  ],
  [
    ['assistant', 'Caro: Music keeps me going these days. Which instruments do you play?'],
    [
      'user',
      'Mel: Clarinet, since I was nine. My grandfather gave me his old one and I still practise most evenings after the kids are asleep.',
    ],
    ['assistant', 'Caro: Wow, I would love to hear it one day.'],
  ],
  [['user', 'Mel: The school band borrowed everything it had, even the drums.']],
];
const customerUserID = `replies-${randomUUID()}`;
let memoryId = '';

beforeAll(async () => {
  const sessions: string[] = [];
  for (const [s, turns] of SESSIONS.entries()) {
    const sessionID = (await post('/sessions/create', { customerUserID })).body.data.id as string;
    sessions.push(sessionID);
    for (const [t, [role, content]] of turns.entries()) {
      const createdAt = new Date(Date.UTC(2023, 4 + s, 1, 10, 0, t)).toISOString();
      expect((await post('/messages/create', { sessionID, role, content, createdAt })).status).toBe(200);
    }
  }
  memoryId = (await post('/memories/create', { name: 'replies', memoryType: 'vector' })).body.data.id as string;
  await post('/memories/add-sessions', { memoryID: memoryId, sessions });
  const expected = SESSIONS.flat().length;
  const deadline = Date.now() + 150_000;
  while ((await get(`/memories/get/${memoryId}`)).body.data.chunkCount !== expected) {
    if (Date.now() > deadline) throw new Error('the conversation was not indexed');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 180_000);

const QUERY = encodeURIComponent('What musical instruments does she play?');

describe('replies beside asking turns', () => {
  it('GET /memory/ answers the turn that asks and, right after it at its score, the reply', async () => {
    const answer = await get(`/memory/?memoryID=${memoryId}&topK=2&query=${QUERY}`);
    expect(answer.status).toBe(200);
    const payload = answer.body.payload as Json[];
    expect(payload.map((item) => item.content)).toEqual([
      'Caro: Music keeps me going these days. Which instruments do you play?',
      'Mel: Clarinet, since I was nine. My grandfather gave me his old one and I still practise most evenings after the kids are asleep.',
    ]);
    expect(payload[1]?.score).toBe(payload[0]?.score);
  });
});
