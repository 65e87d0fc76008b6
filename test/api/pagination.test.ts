import { beforeAll, describe, expect, it } from 'vitest';
import { env, get, post, type Json } from '../support/api';

/** Users of a fresh account would be cleaner; we use a dedicated session's messages as the listing. */
describe('pagination', () => {
  const sessionID = `page-${Date.now()}`;
  const path = `/messages/list?sessionID=${sessionID}`;
  const ids: string[] = [];

  /** A session of `count` messages; answers their ids in creation order. */
  async function sessionOf(session: string, count: number): Promise<string[]> {
    await post('/sessions/create', { sessionID: session });
    const created: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const { body } = await post('/messages/create', { sessionID: session, role: 'user', content: `m${i}` });
      created.push(body.data.id as string);
    }
    return created;
  }

  beforeAll(async () => {
    ids.push(...(await sessionOf(sessionID, 23)));
  });

  const page = async (query: string, listing = path): Promise<Json> => {
    const answer = await get(`${listing}&${query}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  };
  const idsOf = (body: Json): string[] => body.messages.map((m: Json) => m.id as string);

  it('walks forward and back with stable pages and counts', async () => {
    const first = await page('limit=10');
    expect(first.count).toBe(10);
    expect(first.previousToken).toBeNull();
    expect(idsOf(first)).toEqual(ids.slice(0, 10));
    const second = await page(`limit=10&nextToken=${encodeURIComponent(first.nextToken)}`);
    expect(idsOf(second)).toEqual(ids.slice(10, 20));
    const third = await page(`limit=10&nextToken=${encodeURIComponent(second.nextToken)}`);
    expect(idsOf(third)).toEqual(ids.slice(20));
    expect(third.count).toBe(3);
    expect(third.nextToken).toBeNull();
    const back = await page(`limit=10&previousToken=${encodeURIComponent(third.previousToken)}`);
    expect(idsOf(back)).toEqual(ids.slice(10, 20));
    const backAgain = await page(`limit=10&previousToken=${encodeURIComponent(back.previousToken)}`);
    expect(idsOf(backAgain)).toEqual(ids.slice(0, 10));
    expect(backAgain.previousToken).toBeNull();
    const forwardFromBack = await page(`limit=10&nextToken=${encodeURIComponent(backAgain.nextToken)}`);
    expect(idsOf(forwardFromBack)).toEqual(ids.slice(10, 20));
  });

  it('neither skips nor repeats when rows are added between page fetches', async () => {
    // a session of its own: the row it adds would change the other tests' listing
    const growing = `page-growing-${Date.now()}`;
    const before = await sessionOf(growing, 12);
    const listing = `/messages/list?sessionID=${growing}`;
    const first = await page('limit=5', listing);
    const added = await post('/messages/create', { sessionID: growing, role: 'user', content: 'late' });
    const seen = [...idsOf(first)];
    let token = first.nextToken as string | null;
    while (token) {
      const next = await page(`limit=5&nextToken=${encodeURIComponent(token)}`, listing);
      seen.push(...idsOf(next));
      token = next.nextToken;
    }
    expect(seen).toEqual([...before, added.body.data.id]);
  });

  it('refuses forged, altered, foreign and misused tokens', async () => {
    const first = await page('limit=5');
    const token = first.nextToken as string;
    const altered = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    for (const bad of ['garbage', 'v1.AAAA', altered]) {
      const answer = await get(`${path}&nextToken=${encodeURIComponent(bad)}`);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatch(/^nextToken: /);
    }
    const asPrevious = await get(`${path}&previousToken=${encodeURIComponent(token)}`);
    expect(asPrevious.status).toBe(400);
    const otherListing = await get(`/messages/list?nextToken=${encodeURIComponent(token)}`);
    expect(otherListing.status).toBe(400);
    const otherAccount = await get(`${path}&nextToken=${encodeURIComponent(token)}`, env().keyB);
    expect(otherAccount.status).toBe(400);
    const both = await get(`${path}&nextToken=${encodeURIComponent(token)}&previousToken=${encodeURIComponent(token)}`);
    expect(both.status).toBe(400);
  });

  it('refuses limits outside 1-100 or not integers, on every list', async () => {
    for (const list of ['/users/list', '/messages/list']) {
      for (const limit of ['0', '101', '1.5', 'ten', '-1', '']) {
        const answer = await get(`${list}?limit=${limit}`);
        expect(answer.status, `${list} limit=${limit}`).toBe(400);
        expect(answer.body).toEqual({ error: expect.stringMatching(/^limit: /), status: 'bad_request' });
      }
    }
    const usersDefault = await get('/users/list');
    expect(usersDefault.status).toBe(200);
  });
});
