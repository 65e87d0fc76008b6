/**
 * GET /sessions/summary/{id} over HTTP against the shared local runtime (no answer model: extractive):
 * empty before any message, then kept current by the worker as messages are written and deleted.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { del, env, get, post, waitFor, type Json } from '../support/api';

const TRIP = [
  'Hi there, how are you today?',
  'I want to plan a trip to Lisbon in June with my sister, staying in the old town.',
  'Lisbon in June is lovely. The old town has small hotels with views of the river and the trams.',
  'Please book a hotel in the old town of Lisbon for the first week of June.',
  'Done: the old town hotel in Lisbon is booked for the first week of June, with a river view.',
];
const LATER = [
  'By the way, my cat Miso needs a vet appointment before we leave for the trip.',
  'The vet near your home has an appointment for Miso on Friday morning at nine.',
];

async function session(): Promise<string> {
  return (await post('/sessions/create', { sessionID: `sum-${randomUUID()}` })).body.data.id as string;
}

async function say(sessionID: string, contents: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, content] of contents.entries()) {
    const answer = await post('/messages/create', { sessionID, role: i % 2 === 0 ? 'user' : 'assistant', content });
    expect(answer.status).toBe(200);
    ids.push(answer.body.data.id as string);
  }
  return ids;
}

const summaryOf = (sessionID: string, count: number): Promise<Json> =>
  waitFor(`/sessions/summary/${sessionID}`, (body) => body.data?.messageCount === count, undefined, 120_000);

describe('session summaries', () => {
  it('is empty before the first message, then summarises the session with its key points', async () => {
    const id = await session();
    const empty = await get(`/sessions/summary/${id}`);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({
      status: 'success',
      data: { sessionID: id, summary: '', keyPoints: [], messageCount: 0, updatedAt: expect.any(String) },
    });

    await say(id, TRIP);
    const { data } = await summaryOf(id, TRIP.length);
    expect(Object.keys(data).sort()).toEqual(['keyPoints', 'messageCount', 'sessionID', 'summary', 'updatedAt']);
    expect(data.summary).toMatch(/Lisbon/);
    expect(data.summary).not.toMatch(/how are you/);
    expect(data.keyPoints.length).toBeGreaterThan(0);
    expect(data.keyPoints.every((point: string) => TRIP.some((text) => text.includes(point)))).toBe(true);
    expect(Date.parse(data.updatedAt)).toBeGreaterThan(Date.parse(empty.body.data.updatedAt) - 1);
  }, 180_000);

  it('takes in new messages, and starts over without a deleted one', async () => {
    const id = await session();
    await say(id, TRIP);
    const first = (await summaryOf(id, TRIP.length)).data;
    expect(first.keyPoints.join(' ')).not.toMatch(/Miso/);

    const later = await say(id, LATER);
    const second = (await summaryOf(id, TRIP.length + LATER.length)).data;
    expect(second.keyPoints.join(' ')).toMatch(/Miso/); // the new topic is covered
    expect(Date.parse(second.updatedAt)).toBeGreaterThanOrEqual(Date.parse(first.updatedAt));

    for (const messageId of later) expect((await del(`/messages/delete/${messageId}`)).status).toBe(200);
    const third = (await summaryOf(id, TRIP.length)).data;
    expect(third.keyPoints.join(' ')).not.toMatch(/Miso/);
    expect(third.summary).toEqual(first.summary);
  }, 180_000);

  it('answers not_found for unknown and foreign sessions, and bad_request for a bad id', async () => {
    const id = await session();
    expect((await get(`/sessions/summary/${id}`, env().keyB)).status).toBe(404);
    expect((await get(`/sessions/summary/no-such-${randomUUID()}`)).status).toBe(404);
    const bad = await get('/sessions/summary/has%20space');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^id: /);
  });
});
