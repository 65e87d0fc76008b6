/** Graph memories through the API: entities, merged aliases, relations, facts, incremental files, deletes. */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { del, get, ingest, post, textFile, waitFor, type Json } from '../support/api';

async function wholeGraph(memoryId: string): Promise<{ nodes: Json[]; edges: Json[] }> {
  const nodes: Json[] = [];
  const edges: Json[] = [];
  let token: string | null = null;
  do {
    const page: Json = (await get(`/memories/graph/${memoryId}?limit=7${token ? `&nextToken=${encodeURIComponent(token)}` : ''}`)).body;
    if (page.status !== 'success') throw new Error(JSON.stringify(page));
    nodes.push(...page.nodes);
    edges.push(...page.edges);
    expect(page.count).toBe(page.nodes.length);
    token = page.nextToken;
  } while (token);
  return { nodes, edges };
}

const named = (nodes: Json[], name: string) => nodes.find((node) => node.name === name || node.aliases.includes(name));

describe('graph memories', () => {
  it('builds entities with merged aliases, relations and facts, grows with a second file and forgets a removed one', async () => {
    const first = await textFile(
      'ibm.txt',
      'International Business Machines (IBM) built the first hard disk drive in San Jose. IBM sold the RAMAC drive to many companies. The RAMAC drive stored five megabytes of data.',
    );
    const memory = (await post('/memories/create', { name: 'tech', memoryType: 'graph', ontology: 'essays', factExtraction: true })).body
      .data;
    const ready = await ingest(memory, [first.id]);
    expect(ready).toMatchObject({ step: 'ready', failedFiles: [] });
    expect(ready.entityCount).toBeGreaterThan(1);
    expect(ready.factCount).toBeGreaterThan(0);

    const before = await wholeGraph(memory.id);
    const ibm = named(before.nodes, 'International Business Machines');
    expect(ibm?.aliases).toEqual(expect.arrayContaining(['IBM']));
    expect(before.nodes.filter((node) => node.aliases.includes('IBM'))).toHaveLength(1);
    expect(before.edges.length).toBeGreaterThan(0);
    const ids = new Set(before.nodes.map((node) => node.id));
    for (const edge of before.edges) expect(ids.has(edge.source) && ids.has(edge.target)).toBe(true);

    const facts = (await get(`/memory/?memoryID=${memory.id}&query=${encodeURIComponent('who built the hard disk drive')}&facts=true`)).body
      .facts;
    expect(facts).toHaveLength(3);
    expect(facts.map((f: Json) => f.content).join(' ')).toMatch(/hard disk drive/);

    const second = await textFile(
      'zurich.txt',
      'IBM opened a research laboratory in Zurich. The Zurich laboratory invented the scanning tunneling microscope.',
    );
    await ingest(memory, [second.id]);
    const grown = await wholeGraph(memory.id);
    const ibmAfter = grown.nodes.filter((node) => node.aliases.includes('IBM'));
    expect(ibmAfter).toHaveLength(1);
    expect(ibmAfter[0]?.id).toBe(ibm?.id);
    expect(ibmAfter[0]?.support).toBe(2);
    expect(named(grown.nodes, 'Zurich')).toBeDefined();

    expect((await del(`/memories/delete-file?fileID=${first.id}&memoryID=${memory.id}`)).status).toBe(200);
    await waitFor(`/memories/get/${memory.id}`, (b) => b.data?.indexVersion === 3);
    const after = await wholeGraph(memory.id);
    expect(named(after.nodes, 'San Jose')).toBeUndefined();
    expect(named(after.nodes, 'Zurich')).toBeDefined();
    expect(after.nodes.filter((node) => node.aliases.includes('IBM'))[0]?.support).toBe(1);
    const left = new Set(after.nodes.map((node) => node.id));
    for (const edge of after.edges) expect(left.has(edge.source) && left.has(edge.target) && edge.support > 0).toBe(true);
    for (const node of after.nodes) expect(node.support).toBeGreaterThan(0);
  }, 60_000);

  it('pages with sealed tokens and refuses vector memories and stale tokens', async () => {
    const vector = (await post('/memories/create', { name: 'v', memoryType: 'vector' })).body.data;
    const refused = await get(`/memories/graph/${vector.id}`);
    expect(refused).toMatchObject({ status: 400, body: { error: expect.stringMatching(/vector memory/) } });
    expect((await get(`/memories/graph/${randomUUID()}`)).status).toBe(404);
    const empty = (await post('/memories/create', { name: 'g', memoryType: 'graph', ontology: 'culture' })).body.data;
    expect((await get(`/memories/graph/${empty.id}`)).body).toMatchObject({ nodes: [], edges: [], count: 0, nextToken: null });
    expect((await get(`/memories/graph/${empty.id}?nextToken=v1.forged`)).status).toBe(400);
  });
});
