/**
 * Turns that share a time keep the order they were written in: one conversation loaded twice over HTTP,
 * once with its turns a second apart and once with every turn at the session's time (as imported history
 * often is), lists, is indexed (each turn with the turns before it as context) and ranks the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedChunks } from '../support/published-index';
import { get, post } from '../support/api';
import { testDeps } from '../support/stores';

const TURNS = [
  'I finally adopted a puppy last weekend.',
  'Congratulations! What breed is it?',
  'A beagle mix from the shelter on Elm Street.',
  'What did you name him?',
  'Biscuit, because of his colour.',
  'How is the house training going?',
  'Slowly. He still chews the sofa.',
  'Have you tried a crate?',
  'Yes, the vet recommended one on Tuesday.',
  'Did the vet mention vaccinations?',
  'He gets the second round next month.',
  'Remember to book it early.',
];
const QUESTIONS = ['what is the name of the puppy', 'which breed is the puppy', 'what did the vet recommend', 'when are the vaccinations'];
const START = Date.parse('2023-06-03T10:00:00Z');

let stores: ReturnType<typeof testDeps>;
beforeAll(() => {
  stores = testDeps();
});
afterAll(() => stores.documentClient.destroy());

interface Loaded {
  memoryId: string;
  sessionId: string;
  accountId: string;
}

/** The conversation in a session of its own memory; each turn written once the previous one was answered. */
async function load(spacing: number): Promise<Loaded> {
  const memory = (await post('/memories/create', { name: `order-${spacing}`, memoryType: 'vector' })).body.data;
  const session = (await post('/sessions/create', {})).body.data;
  for (const [i, content] of TURNS.entries()) {
    const createdAt = new Date(START + i * spacing).toISOString();
    const answer = await post('/messages/create', { sessionID: session.id, role: i % 2 ? 'assistant' : 'user', content, createdAt });
    expect(answer.status).toBe(200);
  }
  await post('/memories/add-sessions', { memoryID: memory.id, sessions: [session.id] });
  for (let i = 0; i < 600; i++) {
    const indexed = (await get(`/memories/get/${memory.id}`)).body.data.chunkCount === TURNS.length;
    const searchable = (await get(`/messages/search?sessionID=${session.id}&query=puppy&topK=100`)).body.count === TURNS.length;
    if (indexed && searchable) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { memoryId: memory.id, sessionId: session.id, accountId: memory.userID };
}

async function listed(loaded: Loaded): Promise<string[]> {
  const page = await get(`/messages/list?sessionID=${loaded.sessionId}&limit=100`);
  return (page.body.messages ?? page.body.data).map((m: { content: string }) => m.content);
}

async function contexts(loaded: Loaded): Promise<string[]> {
  const memory = await stores.memories.get(loaded.accountId, loaded.memoryId);
  const chunks = await publishedChunks(stores.objects, memory);
  return TURNS.map((turn) => chunks.find((chunk) => chunk.text === turn)?.context ?? 'missing');
}

async function ranked(loaded: Loaded, query: string): Promise<{ memory: string[]; messages: string[] }> {
  const memory = await get(`/memory/?memoryID=${loaded.memoryId}&query=${encodeURIComponent(query)}&topK=5`);
  const messages = await get(`/messages/search?sessionID=${loaded.sessionId}&query=${encodeURIComponent(query)}&topK=5`);
  return {
    memory: memory.body.payload.map((item: { content: string }) => item.content),
    messages: messages.body.messages.map((m: { content: string }) => m.content),
  };
}

describe('turns of equal time', () => {
  it('keep the order they were written in: listing, indexing context and ranking match turns a second apart', {
    timeout: 60_000,
  }, async () => {
    const spaced = await load(1000);
    const equal = await load(0);
    expect(await listed(equal)).toEqual(TURNS);
    expect(await listed(spaced)).toEqual(TURNS);
    const equalContexts = await contexts(equal);
    expect(equalContexts).toEqual(await contexts(spaced));
    expect(equalContexts[4]).toContain('What did you name him?'); // the answer is indexed after its question
    for (const question of QUESTIONS) expect(await ranked(equal, question)).toEqual(await ranked(spaced, question));
    expect((await ranked(equal, QUESTIONS[0] ?? '')).memory).toContain('Biscuit, because of his colour.'); // found through its question
  });
});
