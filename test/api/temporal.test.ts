/**
 * Memory that knows when things were true, over HTTP: facts with validity and `asOf` on GET /memory/,
 * validity on GET /memories/entities/{id}, GET /memories/profile/{id}, supersession of single-valued
 * relations only, and a replaced file's facts closed rather than duplicated.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { get, ingest, post, textFile, upload, waitFor, type Json } from '../support/api';
import { checkSchema, operationsOf, type Schema } from '../support/openapi-arbitraries';

const customer = `traveller-${process.pid}-${Date.now()}`;

async function say(sessionID: string, content: string, createdAt: string, role = 'user'): Promise<Json> {
  const answer = await post('/messages/create', { sessionID, role, content, createdAt });
  if (answer.status !== 200) throw new Error(JSON.stringify(answer.body));
  return answer.body.data;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

const factsAsOf = async (memoryId: string, query: string, asOf: string): Promise<Json[]> => {
  const answer = await get(`/memory/?memoryID=${memoryId}&query=${encodeURIComponent(query)}&facts=true&topK=10&asOf=${asOf}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.facts as Json[];
};
const texts = (facts: Json[]): string => facts.map((fact) => fact.content).join(' | ');

describe('a conversation where the user moves, changes jobs and changes a preference', () => {
  let memory: Json;
  const said: Record<string, Json> = {};
  let profilePath = '';
  let profile: Json;

  // the conversation's memory, which every test of this group reads: ready once its profile holds the last message
  beforeAll(async () => {
    const session = (await post('/sessions/create', { customerUserID: customer })).body.data as Json;
    said.paris = await say(session.id, 'I live in Paris and I work at Acme Corporation.', '2024-01-10T09:00:00Z');
    await say(session.id, 'Good to know, thanks for telling me.', '2024-01-10T09:01:00Z', 'assistant');
    said.window = await say(session.id, 'I prefer window seats. I like tea.', '2024-02-01T09:00:00Z');
    said.coffee = await say(session.id, 'I also like coffee.', '2024-03-01T09:00:00Z');
    said.berlin = await say(session.id, 'We moved to Berlin last week.', '2024-06-01T09:00:00Z');
    said.globex = await say(session.id, 'I started a new job at Globex Corporation.', '2024-07-01T09:00:00Z');
    said.aisle = await say(session.id, 'These days I prefer aisle seats.', '2024-08-01T09:00:00Z');
    memory = (await post('/memories/create', { name: 'traveller', memoryType: 'graph', ontology: 'culture', factExtraction: true })).body
      .data;
    expect((await post('/memories/add-sessions', { memoryID: memory.id, sessions: [session.id] })).status).toBe(200);
    profilePath = `/memories/profile/${memory.id}?customerUserID=${encodeURIComponent(customer)}`;
    profile = await until(
      async () => (await get(profilePath)).body,
      (body) => body.data?.preferences?.some((entry: Json) => entry.content.includes('aisle')),
      'the whole conversation in the profile',
    );
  });

  it('keeps facts with validity, answers them as of three dates, and builds the profile', async () => {
    expect(profile.status).toBe('success');
    expect(profile.data.customerUserID).toBe(customer);
    // current first (latest first), then what was replaced
    expect(profile.data.facts).toEqual([
      {
        content: 'I started a new job at Globex Corporation.',
        validFrom: '2024-07-01T09:00:00.000Z',
        validTo: null,
        sourceID: said.globex?.id,
      },
      { content: 'We moved to Berlin last week.', validFrom: '2024-06-01T09:00:00.000Z', validTo: null, sourceID: said.berlin?.id },
      { content: 'I live in Paris', validFrom: '2024-01-10T09:00:00.000Z', validTo: '2024-06-01T09:00:00.000Z', sourceID: said.paris?.id },
      {
        content: 'I work at Acme Corporation.',
        validFrom: '2024-01-10T09:00:00.000Z',
        validTo: '2024-07-01T09:00:00.000Z',
        sourceID: said.paris?.id,
      },
    ]);
    const preferences = profile.data.preferences as Json[];
    expect(preferences.map((entry) => [entry.content, entry.validTo])).toEqual([
      ['These days I prefer aisle seats.', null],
      ['I also like coffee.', null],
      ['I like tea.', null], // tea and coffee: multi-valued, both kept
      ['I prefer window seats.', '2024-08-01T09:00:00.000Z'],
    ]);

    const past = (await get(`${profilePath}&asOf=2024-03-15T00:00:00Z`)).body.data as Json;
    expect(texts(past.facts)).toBe('I live in Paris | I work at Acme Corporation.');
    expect(texts(past.preferences)).toBe('I also like coffee. | I prefer window seats. | I like tea.');
    expect((await get(`${profilePath}&asOf=2023-01-01T00:00:00Z`)).body.data).toMatchObject({ preferences: [], facts: [] });
  });

  it('answers facts as they stood at each date, with validity and source', async () => {
    const march = await factsAsOf(memory.id, 'where do I live and work', '2024-03-15T00:00:00Z');
    expect(march).toContainEqual({
      content: 'I live in Paris',
      validFrom: '2024-01-10T09:00:00.000Z',
      validTo: '2024-06-01T09:00:00.000Z',
      sourceID: said.paris?.id,
    });
    expect(texts(march)).not.toMatch(/Berlin|Globex|aisle/);

    const june = await factsAsOf(memory.id, 'where did we move', '2024-06-15T00:00:00Z');
    expect(june).toContainEqual({
      content: 'We moved to Berlin last week.',
      validFrom: '2024-06-01T09:00:00.000Z',
      validTo: null,
      sourceID: said.berlin?.id,
    });
    expect(texts(june)).not.toMatch(/Paris|Globex/);

    const now = await factsAsOf(memory.id, 'my new job', new Date().toISOString());
    expect(texts(now)).toContain('Globex Corporation');
    expect(texts(now)).not.toMatch(/Paris|Acme/);
    for (const fact of now) expect(fact.validTo).toBeNull();
  });

  it('ranks the current statement above the one it replaced', async () => {
    const answer = await get(`/memory/?memoryID=${memory.id}&query=${encodeURIComponent('which seats do I prefer')}&topK=2`);
    expect(answer.body.payload[0].content).toBe('These days I prefer aisle seats.');
    const then = await get(
      `/memory/?memoryID=${memory.id}&query=${encodeURIComponent('which seats do I prefer')}&topK=2&asOf=2024-09-01T00:00:00Z`,
    );
    expect(then.body.payload[0].content).toBe('These days I prefer aisle seats.');
  });

  it('refuses a malformed asOf and a missing customerUserID, naming the field', async () => {
    const bad = await get(`/memory/?memoryID=${memory.id}&query=x&asOf=yesterday`);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/asOf/);
    const missing = await get(`/memories/profile/${memory.id}`);
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toMatch(/customerUserID/);
    const vector = (await post('/memories/create', { name: 'v', memoryType: 'vector' })).body.data as Json;
    expect((await get(`/memories/profile/${vector.id}?customerUserID=x`)).status).toBe(400);
  });
});

describe('validity of graph facts and relations from files', () => {
  it('closes a single-valued relation when a later file states another value, and keeps multi-valued ones', async () => {
    const memory = (await post('/memories/create', { name: 'moves', memoryType: 'graph', ontology: 'culture', factExtraction: true })).body
      .data as Json;
    const first = await textFile('first.txt', 'Alice Martin moved to Paris. Alice Martin visited Rome.');
    expect(await ingest(memory, [first.id])).toMatchObject({ step: 'ready' });
    const second = await textFile('second.txt', 'Alice Martin moved to Berlin. Alice Martin visited Vienna.');
    expect(await ingest(memory, [second.id])).toMatchObject({ step: 'ready' });

    const [alice] = (await get(`/memories/entities/${memory.id}?name=${encodeURIComponent('Alice Martin')}`)).body.entities as Json[];
    const fact = (words: string) => (alice?.facts as Json[]).find((candidate) => candidate.content.includes(words));
    expect(fact('Berlin')).toMatchObject({ validFrom: second.createdAt, validTo: null, sourceID: second.id });
    expect(fact('Paris')).toMatchObject({ validFrom: first.createdAt, validTo: second.createdAt, sourceID: first.id });
    expect(fact('Rome')?.validTo).toBeNull();
    expect(fact('Vienna')?.validTo).toBeNull();
    expect((alice?.facts as Json[]).map((entry) => entry.validFrom)).toEqual(
      [...(alice?.facts as Json[])]
        .map((entry) => entry.validFrom)
        .sort()
        .reverse(),
    );
    const relation = (target: string) =>
      (alice?.relations as Json[]).find((candidate) => candidate.target.name === target && candidate.relation === 'moved to');
    expect(relation('Paris')).toMatchObject({ validFrom: first.createdAt, validTo: second.createdAt });
    expect(relation('Berlin')).toMatchObject({ validFrom: second.createdAt, validTo: null });

    // the graph's pages carry the same validity on their edges, in the shape the OpenAPI document promises
    const page = await get(`/memories/graph/${memory.id}?limit=100`);
    expect(page.status).toBe(200);
    const doc = (await get('/openapi.json', null)).body as Schema;
    const operation = operationsOf(doc).find((candidate) => candidate.label === 'GET /memories/graph/{id}');
    expect(checkSchema(doc, operation?.responses['200']?.schema, page.body)).toEqual([]);
    const dated = (page.body.edges as Json[]).filter((edge) => edge.predicate === 'moved to');
    expect(dated.map((edge) => edge.validTo).sort()).toEqual([null, second.createdAt].sort());
  });

  it("closes a replaced file's facts instead of duplicating them", async () => {
    const sourceKey = `kb/acme-${process.pid}-${Date.now()}`;
    const create = async (text: string) => {
      const uploaded = await upload('acme.txt', text);
      return (await post('/files/create', { name: 'acme.txt', key: uploaded.body.data.key, fileType: 'text', sourceKey })).body
        .data as Json;
    };
    const file = await create('Bob Stone founded Acme Corporation. Acme Corporation built the Falcon Bridge.');
    await waitFor(`/files/get/${file.id}`, (body) => body.data?.state === 'ready');
    const memory = (await post('/memories/create', { name: 'acme', memoryType: 'graph', ontology: 'culture', factExtraction: true })).body
      .data as Json;
    expect(await ingest(memory, [file.id])).toMatchObject({ step: 'ready' });
    const firstVersion = (await get(`/files/get/${file.id}`)).body.data as Json;

    await create('Carla Diaz founded Acme Corporation. Acme Corporation built the Falcon Bridge.');
    const entity = await until(
      async () =>
        ((await get(`/memories/entities/${memory.id}?name=${encodeURIComponent('Acme Corporation')}`)).body.entities as Json[])[0],
      (found) => JSON.stringify(found ?? {}).includes('Carla Diaz'),
      'the new version in the graph',
    );
    const facts = entity?.facts as Json[];
    const bridge = facts.filter((fact) => fact.content.includes('Falcon Bridge'));
    expect(bridge).toHaveLength(1);
    expect(bridge[0]).toMatchObject({ validFrom: firstVersion.createdAt, validTo: null, sourceID: file.id });
    const bob = facts.find((fact) => fact.content.includes('Bob Stone'));
    const carla = facts.find((fact) => fact.content.includes('Carla Diaz'));
    expect(bob?.validTo).not.toBeNull();
    expect(carla).toMatchObject({ validFrom: bob?.validTo, validTo: null });
    const before = await factsAsOf(memory.id, 'who founded Acme Corporation', firstVersion.createdAt);
    expect(texts(before)).toContain('Bob Stone');
    expect(texts(before)).not.toContain('Carla Diaz');
  });
});
