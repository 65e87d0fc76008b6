/**
 * Deletion that erases (issue #26), conversations: a deleted message's text is no entity passage, fact or
 * profile entry at once (before the rebuild); a deleted session keeps its record but its messages' text
 * leaves every answer at once (query, message search, listing, summary, entities, profile) and, within the
 * bound of docs/backups.md, every object of the local S3 store and every item of the table, exports included.
 */
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { del, get, type Json, post, waitFor } from '../support/api';
import { leftAfter, objectsHolding } from '../support/erasure-scan';
import { RUNTIME_RETIRE_SECONDS } from '../support/runtime-settings';
import { testDeps } from '../support/stores';

let stores: ReturnType<typeof testDeps>;
beforeAll(() => {
  stores = testDeps();
});
afterAll(() => stores.documentClient.destroy());

/** A capitalised made-up name (letters only, so the graph takes it for a name). */
const name = () => `Zq${Array.from({ length: 9 }, () => String.fromCharCode(97 + randomInt(26))).join('')}`;

async function say(sessionID: string, content: string): Promise<Json> {
  const answer = await post('/messages/create', { sessionID, role: 'user', content });
  if (answer.status !== 200) throw new Error(JSON.stringify(answer.body));
  return answer.body.data;
}

const graphMemory = async (label: string): Promise<Json> =>
  (await post('/memories/create', { name: label, memoryType: 'graph', ontology: 'culture', factExtraction: true })).body.data;

/** Everything a graph memory answers about `text`: passages, facts, entities and the customer's profile. */
async function answersAbout(memoryId: string, text: string, customer: string): Promise<string> {
  const query = await get(`/memory/?memoryID=${memoryId}&query=${encodeURIComponent(text)}&facts=true&topK=10`);
  const entities = await get(`/memories/entities/${memoryId}?name=${encodeURIComponent(text)}`);
  const profile = await get(`/memories/profile/${memoryId}?customerUserID=${encodeURIComponent(customer)}`);
  return JSON.stringify([query.body, entities.body, profile.body]);
}

describe('a deleted message', () => {
  it('is no entity passage, fact or profile entry at once, before the graph is rebuilt', async () => {
    const [pet, customer] = [name(), `owner-${name()}`];
    const session = (await post('/sessions/create', { customerUserID: customer })).body.data;
    const deleted = await say(session.id, `Orla Quintrell adopted a parrot called ${pet}. I like the parrot ${pet} a lot.`);
    await say(session.id, 'Orla Quintrell teaches chemistry at the college.');
    const memory = await graphMemory('entity-erasure');
    await post('/memories/add-sessions', { memoryID: memory.id, sessions: [session.id] });
    const path = `/memories/entities/${memory.id}?name=${encodeURIComponent('Orla Quintrell')}`;
    await waitFor(path, (b) => JSON.stringify(b.entities ?? []).includes(pet), undefined, 60_000);
    expect(await answersAbout(memory.id, pet, customer)).toContain(pet);

    expect((await del(`/messages/delete/${deleted.id}`)).status).toBe(200);
    const entities = (await get(path)).body.entities as Json[];
    expect(JSON.stringify(entities)).not.toContain(pet);
    expect(entities.some((entity) => entity.passages.some((p: Json) => p.content.includes('chemistry')))).toBe(true);
    expect(await answersAbout(memory.id, pet, customer)).not.toContain(pet);
  }, 120_000);
});

describe('a deleted session', () => {
  it('keeps its record; its text leaves every answer at once and every stored object and item within the bound', async () => {
    const [word, customer] = [name(), `customer-${name()}`];
    const session = (await post('/sessions/create', { customerUserID: customer, metadata: [{ key: 'topic', value: 'pets' }] })).body.data;
    await say(session.id, `I live in Tromso with my cat ${word}.`);
    await say(session.id, `I prefer the vet ${word} recommended. I like long walks.`);
    const memory = await graphMemory('session-erasure');
    await post('/memories/add-sessions', { memoryID: memory.id, sessions: [session.id] });
    await waitFor(`/memory/?memoryID=${memory.id}&query=${word}`, (b) => JSON.stringify(b.payload ?? []).includes(word), undefined, 60_000);
    await waitFor(`/sessions/summary/${session.id}`, (b) => b.data?.messageCount === 2, undefined, 60_000);
    await waitFor(`/messages/search?query=${word}`, (b) => JSON.stringify(b.messages ?? []).includes(word), undefined, 60_000);
    const exported = (await post(`/memories/export/${memory.id}`, {})).body.data.exportID;
    await waitFor(`/memories/export/${exported}`, (b) => b.data?.state === 'completed', undefined, 60_000);
    expect(await answersAbout(memory.id, word, customer)).toContain(word);
    expect((await objectsHolding(stores, [word])).length).toBeGreaterThan(0);

    expect((await del(`/sessions/delete/${session.id}`)).status).toBe(200);
    // the record stays (interface.md: soft delete), its messages and their text do not
    expect((await get(`/sessions/get/${session.id}`)).body.data).toMatchObject({ id: session.id, deletedAt: expect.any(String) });
    expect((await get(`/messages/list?sessionID=${session.id}`)).body).toMatchObject({ messages: [], count: 0 });
    expect((await get(`/sessions/summary/${session.id}`)).body.data).toMatchObject({ summary: '', keyPoints: [], messageCount: 0 });
    expect(JSON.stringify((await get(`/messages/search?query=${word}`)).body)).not.toContain(word);
    expect(await answersAbout(memory.id, word, customer)).not.toContain(word);

    const left = await leftAfter(stores, [word], (RUNTIME_RETIRE_SECONDS + 60) * 1000);
    expect(left).toEqual({ objects: [], items: [] });
    expect(await answersAbout(memory.id, word, customer)).not.toContain(word);
    expect((await get(`/sessions/summary/${session.id}`)).body.data).toMatchObject({ summary: '', messageCount: 0 });
    expect((await get(`/memories/export/${exported}`)).body.data).toMatchObject({ state: 'failed', url: null });
  }, 300_000);
});
