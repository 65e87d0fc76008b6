/**
 * The served OpenAPI document is one a generator can use, and says what the API does: named schemas,
 * operation ids a person would choose, integers and booleans typed as such, the limits the API enforces
 * (a value at a documented maximum is taken, one past it refused naming the parameter), the documented
 * defaults applied, the conditions between fields enforced, and the examples accepted.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, get, type Json } from '../support/api';

const doc = (await get('/openapi.json', null)).body;

interface Op {
  method: string;
  path: string;
  operation: Json;
}

const operations: Op[] = Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation: operation as Json })),
);
const byId = new Map(operations.map((op) => [op.operation.operationId as string, op]));
const schemaRef = (name: string) => (doc.components.schemas as Json)[name] as Json;

describe('OpenAPI document', () => {
  it('names every operation with a unique verb-noun id and groups it by tag', () => {
    const ids = operations.map((op) => op.operation.operationId as string);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z]+[A-Z][A-Za-z]*$/);
    for (const id of [
      'createMemory',
      'searchMemory',
      'listMemories',
      'getMemory',
      'findMemoryEntities',
      'uploadFile',
      'createUploadUrl',
      'searchMessages',
      'createMessage',
      'createSession',
      'listUsers',
    ]) {
      expect(byId.has(id), id).toBe(true);
    }
    expect((doc.tags as Json[]).map((tag) => tag.name)).toEqual(expect.arrayContaining(['memories', 'files', 'retrieval']));
  });

  it('publishes named component schemas and refers to them', () => {
    for (const name of [
      'Memory',
      'MemorySummary',
      'File',
      'FileSummary',
      'Session',
      'Message',
      'User',
      'Entity',
      'Source',
      'Passage',
      'Error',
      'RetrievalError',
      'CreateMemoryRequest',
    ]) {
      expect(schemaRef(name), name).toMatchObject({ type: 'object' });
    }
    const get = byId.get('getMemory')?.operation as Json;
    expect(get.responses['200'].content['application/json'].schema.properties.data).toEqual({ $ref: '#/components/schemas/Memory' });
    expect(get.responses['404'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    const search = byId.get('searchMemory')?.operation as Json;
    expect(search.responses['400'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/RetrievalError' });
    const refs = JSON.stringify(doc).match(/"#\/components\/schemas\/[A-Za-z]+"/g) ?? [];
    for (const ref of refs) expect(schemaRef(JSON.parse(ref).split('/').pop()), ref).toBeDefined();
  });

  it('types query integers and flags as such, with their limits and defaults', () => {
    const param = (id: string, name: string) => (byId.get(id)?.operation.parameters as Json[]).find((p) => p.name === name)?.schema as Json;
    expect(param('listMemories', 'limit')).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 10 });
    expect(param('getMemoryGraph', 'limit')).toEqual({ type: 'integer', minimum: 1, maximum: 5000, default: 10 });
    expect(param('searchMemory', 'topK')).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 5 });
    expect(param('searchMemory', 'facts')).toEqual({ type: 'boolean', default: false });
    expect(param('searchMessages', 'topK')).toMatchObject({ type: 'integer', maximum: 100, default: 10 });
    const texts = JSON.stringify(doc.paths);
    expect(texts).not.toMatch(/"pattern":"\^\\\\d\+\$"/);
  });

  it('enforces each documented query maximum: at it the call is taken, past it refused naming the parameter', async () => {
    const lists = operations.filter(
      (op) => op.method === 'GET' && !op.path.includes('{') && op.operation.parameters.every((p: Json) => !p.required),
    );
    expect(lists.length).toBeGreaterThanOrEqual(4);
    for (const op of lists) {
      const limit = (op.operation.parameters as Json[]).find((p) => p.name === 'limit');
      if (!limit) continue;
      const at = await get(`${op.path}?limit=${limit.schema.maximum}`);
      expect(at.status, op.path).toBe(200);
      const past = await get(`${op.path}?limit=${limit.schema.maximum + 1}`);
      expect(past.status, op.path).toBe(400);
      expect(past.body.error).toMatch(/^limit: must be an integer from 1 to \d+/);
      const typed = await get(`${op.path}?limit=ten`);
      expect(typed.status, op.path).toBe(400);
    }
    const topK = await get('/messages/search?query=hello&topK=101');
    expect(topK).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^topK: /) } });
    const flag = await get(`/memory?memoryID=${randomUUID()}&query=hi&facts=maybe`);
    expect(flag).toMatchObject({ status: 400, body: { detail: 'facts: must be true or false' } });
  });

  it('states the conditions between fields that the API enforces', async () => {
    const body = schemaRef('CreateMemoryRequest');
    expect(body.required).toEqual(['name', 'memoryType']);
    expect(body.properties.ontology.description).toMatch(/Required when memoryType is graph/);
    const graphWithout = await call('POST', '/memories/create', { body: { name: 'g', memoryType: 'graph' } });
    expect(graphWithout).toMatchObject({ status: 400, body: { error: 'ontology: is required for a graph memory' } });
    const vectorWith = await call('POST', '/memories/create', { body: { name: 'v', memoryType: 'vector', ontology: 'essays' } });
    expect(vectorWith).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^ontology: applies to graph memories only/) } });
    expect(body.properties.chunkSize.description).toMatch(/vector memories only/);
    const graphChunked = await call('POST', '/memories/create', {
      body: { name: 'g', memoryType: 'graph', ontology: 'essays', chunkSize: 500 },
    });
    expect(graphChunked).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^chunkSize: /) } });
  });

  it('gives examples that the API accepts', async () => {
    for (const [id, schema] of [
      ['createUser', 'CreateUserRequest'],
      ['createSession', 'CreateSessionRequest'],
      ['createMessage', 'CreateMessageRequest'],
      ['createMemory', 'CreateMemoryRequest'],
    ] as const) {
      const example = schemaRef(schema).example as Json;
      expect(example, schema).toBeDefined();
      const op = byId.get(id) as Op;
      const answer = await call(op.method, op.path, { body: example });
      expect(answer.status, `${id}: ${JSON.stringify(answer.body)}`).toBe(200);
    }
  });
});
