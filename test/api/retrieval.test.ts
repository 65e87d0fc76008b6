/** GET /memory/ over real ingested memories: ranking, the graph walk, facts, sources, deletes, errors. */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, del, env, get, ingest, post, textFile, type Json } from '../support/api';

const ask = (memoryId: string, query: string, extra = '', key?: string) =>
  get(`/memory/?memoryID=${memoryId}&query=${encodeURIComponent(query)}${extra}`, key);

const DOCS: Record<string, string> = {
  'kettles.txt': 'An electric kettle boils water quickly by heating a metal coil at its base. Descale it monthly in hard water areas.',
  'bicycles.txt': 'To fix a flat bicycle tyre, remove the inner tube, find the puncture, patch it and pump the tyre back up.',
  'sourdough.txt': 'A sourdough starter is a mix of flour and water that ferments with wild yeast. Feed it every day.',
  'volcanoes.txt': 'Volcanoes erupt when molten rock rises through cracks in the crust and escapes at the surface.',
};

describe('retrieval over a vector memory', () => {
  let memory: Json;
  const files: Record<string, Json> = {};

  beforeAll(async () => {
    for (const [name, text] of Object.entries(DOCS)) files[name] = await textFile(name, text);
    memory = (await post('/memories/create', { name: 'howto', memoryType: 'vector' })).body.data;
    await ingest(
      memory,
      Object.values(files).map((f) => f.id as string),
    );
  });

  it('puts the right passage first for a paraphrased question, with its source', async () => {
    const answer = await ask(memory.id, 'how do I repair a punctured bike wheel?', '&topK=2');
    expect(answer.status).toBe(200);
    expect(answer.body.payload).toHaveLength(2);
    expect(answer.body.payload[0].content).toContain('flat bicycle tyre');
    expect(answer.body.payload[0].score).toBeGreaterThanOrEqual(answer.body.payload[1].score);
    expect(answer.body.sources[0]).toMatchObject({
      id: files['bicycles.txt']?.id,
      name: 'bicycles.txt',
      url: `/files/get/${files['bicycles.txt']?.id}`,
    });
    expect(answer.body.facts).toEqual([]);
  });

  it('answers exactly three supporting facts and query-focused extracts when asked', async () => {
    const answer = await ask(memory.id, 'what makes volcanoes erupt', '&facts=true&assisted=true&topK=3');
    expect(answer.body.facts).toHaveLength(3);
    expect(answer.body.facts.map((f: { content: string }) => f.content).join(' ')).toMatch(/molten rock/);
    expect(answer.body.payload[0].content).toMatch(/molten rock/);
  });

  it('never returns a file removed from the memory', async () => {
    const id = files['kettles.txt']?.id as string;
    expect((await ask(memory.id, 'electric kettle coil')).body.sources.map((s: { id: string }) => s.id)).toContain(id);
    expect((await del(`/memories/delete-file?fileID=${id}&memoryID=${memory.id}`)).status).toBe(200);
    const after = await ask(memory.id, 'electric kettle coil descale', '&facts=true&topK=10');
    expect(after.body.sources.map((s: { id: string }) => s.id)).not.toContain(id);
    expect(JSON.stringify(after.body)).not.toContain('kettle');
  });

  it('answers errors as {detail} with the right status, and keeps accounts apart', async () => {
    const nobodys = randomUUID();
    const unknown = await ask(nobodys, 'anything');
    expect(unknown).toMatchObject({ status: 404, body: { detail: expect.stringContaining(nobodys) } });
    const malformed = await ask('no-such-memory', 'anything');
    expect(malformed).toMatchObject({ status: 400, body: { detail: expect.stringMatching(/^memoryID: /) } });
    const noQuery = await get(`/memory/?memoryID=${memory.id}`);
    expect(noQuery).toMatchObject({ status: 400, body: { detail: expect.stringMatching(/^query: /) } });
    const badTopK = await ask(memory.id, 'x', '&topK=0');
    expect(badTopK).toMatchObject({ status: 400, body: { detail: expect.stringMatching(/^topK: /) } });
    const badFlag = await ask(memory.id, 'x', '&facts=maybe');
    expect(badFlag.body.detail).toMatch(/^facts: /);
    const missingKey = await call('GET', `/memory/?memoryID=${memory.id}&query=x`, { key: null });
    expect(missingKey).toMatchObject({ status: 401, body: { detail: expect.any(String) } });
    expect((await ask(memory.id, 'volcanoes', '', env().keyB)).status).toBe(404);
  });
});

describe('retrieval over a graph memory', () => {
  it('answers a two-hop question through the graph walk', async () => {
    const a = await textFile(
      'laboratory.txt',
      'Marie Curie worked at the Radium Institute in Paris for most of her career. She studied radioactivity there.',
    );
    const b = await textFile(
      'institute.txt',
      'The Radium Institute was founded in 1909 and later became the Curie Institute. Its laboratories still stand.',
    );
    const c = await textFile('noise.txt', 'Tomatoes grow best in warm sunny gardens with regular watering.');
    const memory = (await post('/memories/create', { name: 'science', memoryType: 'graph', ontology: 'culture', factExtraction: true }))
      .body.data;
    const done = await ingest(memory, [a.id, b.id, c.id]);
    expect(done.step).toBe('ready');
    expect(done.entityCount).toBeGreaterThan(2);
    const answer = await ask(memory.id, 'When was the place where Marie Curie worked founded?', '&topK=2&facts=true');
    const ids = answer.body.sources.map((s: { id: string }) => s.id);
    expect(ids).toContain(b.id);
    expect(ids).not.toContain(c.id);
    expect(answer.body.facts).toHaveLength(3);
  });
});
