/** GET /memories/entities/{id}: entities by name with relations, facts and passages; graph pages up to 5,000 nodes. */
import { beforeAll, describe, expect, it } from 'vitest';
import { del, env, get, ingest, post, textFile, type Json } from '../support/api';

const IBM_TEXT =
  'International Business Machines (IBM) built the first hard disk drive in San Jose. IBM sold the RAMAC drive to many companies. The RAMAC drive stored five megabytes of data.';
const ZURICH_TEXT = 'IBM opened a research laboratory in Zurich. The Zurich laboratory invented the scanning tunneling microscope.';

describe('entity look-up', () => {
  let memory: Json;
  let ibmFile: Json;
  let zurichFile: Json;

  beforeAll(async () => {
    ibmFile = await textFile('ibm.txt', IBM_TEXT);
    zurichFile = await textFile('zurich.txt', ZURICH_TEXT);
    memory = (await post('/memories/create', { name: 'entities', memoryType: 'graph', ontology: 'essays', factExtraction: true })).body
      .data;
    // one file after the other, as the graph test does: which name a node shows can depend on the order
    expect(await ingest(memory, [ibmFile.id])).toMatchObject({ step: 'ready' });
    expect(await ingest(memory, [zurichFile.id])).toMatchObject({ step: 'ready' });
  }, 60_000);

  it('finds an entity by an alias, best match first, with relations, facts and passages from its files', async () => {
    const answer = await get(`/memories/entities/${memory.id}?name=IBM`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'success', count: answer.body.entities.length });
    const [best] = answer.body.entities as Json[];
    expect(best).toMatchObject({ name: 'International Business Machines', aliases: expect.arrayContaining(['IBM']) });
    expect(typeof best?.type).toBe('string');
    expect(best?.relations.length).toBeGreaterThan(0);
    for (const relation of best?.relations ?? []) {
      expect(relation).toMatchObject({ relation: expect.any(String), target: { id: expect.any(String), name: expect.any(String) } });
      expect(relation.target.id).not.toBe(best?.id);
    }
    const targets = (best?.relations as Json[]).map((relation) => relation.target.name);
    expect(targets.some((name) => /San Jose|RAMAC|Zurich/.test(name))).toBe(true);
    expect(best?.facts.length).toBeGreaterThan(0);
    expect((best?.facts as Json[]).every((fact) => /IBM|International Business Machines/.test(fact.content))).toBe(true);
    const fileIds = new Set((best?.passages as Json[]).map((passage) => passage.fileID));
    expect(fileIds).toEqual(new Set([ibmFile.id, zurichFile.id]));
    for (const passage of best?.passages ?? []) expect(passage.content).toMatch(/IBM/);
  });

  it('matches by words of the name and honours limit', async () => {
    const full = await get(`/memories/entities/${memory.id}?name=${encodeURIComponent('international business machines')}`);
    expect(full.body.entities[0]?.name).toBe('International Business Machines');
    const one = await get(`/memories/entities/${memory.id}?name=drive&limit=1`);
    expect(one.body).toMatchObject({ count: 1 });
    expect(one.body.entities[0]?.name).toMatch(/drive/i);
    const none = await get(`/memories/entities/${memory.id}?name=${encodeURIComponent('Kilimanjaro')}`);
    expect(none.body).toEqual({ status: 'success', entities: [], count: 0 });
  });

  it('refuses bad input, vector memories and other accounts', async () => {
    expect(await get(`/memories/entities/${memory.id}`)).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/^name: is required/) },
    });
    expect(await get(`/memories/entities/${memory.id}?name=IBM&limit=0`)).toMatchObject({
      status: 400,
      body: { error: 'limit: must be an integer from 1 to 100' },
    });
    expect((await get(`/memories/entities/${memory.id}?name=IBM&limit=101`)).status).toBe(400);
    const vector = (await post('/memories/create', { name: 'v', memoryType: 'vector' })).body.data;
    expect(await get(`/memories/entities/${vector.id}?name=IBM`)).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/^id: .*vector memory/) },
    });
    expect((await get(`/memories/entities/${memory.id}?name=IBM`, env().keyB)).status).toBe(404);
    expect((await get(`/memories/entities/${memory.id}?name=IBM`, null)).status).toBe(401);
  });

  it('pages the graph up to 5,000 nodes at a time', async () => {
    const page = await get(`/memories/graph/${memory.id}?limit=5000`);
    expect(page.status).toBe(200);
    expect(page.body.count).toBe(page.body.nodes.length);
    expect(page.body.nextToken).toBeNull();
    expect(await get(`/memories/graph/${memory.id}?limit=5001`)).toMatchObject({
      status: 400,
      body: { error: 'limit: must be an integer from 1 to 5000' },
    });
  });

  it('leaves out a removed file: its passages, facts and the entities only it mentioned are gone at once', async () => {
    const before = (await get(`/memories/entities/${memory.id}?name=Zurich`)).body.entities as Json[];
    expect(before.map((entity) => entity.name)).toContain('Zurich');
    expect((await del(`/memories/delete-file?fileID=${zurichFile.id}&memoryID=${memory.id}`)).status).toBe(200);
    const entities = (await get(`/memories/entities/${memory.id}?name=IBM`)).body.entities as Json[];
    for (const entity of entities) expect(entity.passages.length, entity.name).toBeGreaterThan(0);
    const zurich = (await get(`/memories/entities/${memory.id}?name=Zurich`)).body.entities as Json[];
    expect(zurich.filter((entity) => entity.name === 'Zurich')).toEqual([]);
    const best = entities[0] as Json;
    for (const passage of best.passages) expect(passage.fileID).toBe(ibmFile.id);
    for (const fact of best.facts) expect(fact.content).not.toMatch(/Zurich/);
  });
});
