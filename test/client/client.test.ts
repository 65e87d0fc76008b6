/**
 * The typed client (packages/client) against the local runtime: every operation group, paging through
 * nextToken with async iteration, both upload paths (multipart and presigned), and errors as values.
 * The `@ts-expect-error` lines are type tests: `npm test` typechecks this file, so they fail the run
 * when the client stops rejecting what the API refuses.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { createKmemClient, KmemApiError, unwrap, type KmemClient } from '../../packages/client/src';

const { url, keyA, keyB } = inject('kmem');
const kmem = createKmemClient({ baseUrl: url, apiKey: keyA });
const other = createKmemClient({ baseUrl: url, apiKey: keyB });

async function readyMemory(client: KmemClient, id: string) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const memory = unwrap(await client.getMemory({ params: { path: { id } } })).data;
    if (memory.step === 'ready' || memory.step === 'failed') return memory;
    if (Date.now() > deadline) throw new Error(`memory ${id} stuck at ${memory.step}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('typed client', () => {
  it('meta, users and paging: every user comes once through async iteration', async () => {
    expect(unwrap(await kmem.getHealth())).toEqual({ status: 'ok' });
    const own = createKmemClient({ baseUrl: url, apiKey: keyB });
    const emails = ['a@example.com', 'b@example.com', 'c@example.com'].map((email) => `client-${Date.now()}-${email}`);
    const created = [];
    for (const email of emails) created.push(unwrap(await own.createUser({ body: { email, firstName: 'Client' } })).data);
    expect(unwrap(await own.getUser({ params: { path: { id: created[0]?.id ?? '' } } })).data.email).toBe(emails[0]);
    const seen: string[] = [];
    let pages = 0;
    for await (const page of own.pages('listUsers', { params: { query: { limit: 2 } } })) {
      pages += 1;
      expect(page.users.length).toBeLessThanOrEqual(2);
    }
    for await (const user of own.paginate('listUsers', { params: { query: { limit: 2 } } })) seen.push(user.email);
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(seen.filter((email) => emails.includes(email))).toEqual(emails);
    expect(new Set(seen).size).toBe(seen.length);
    // @ts-expect-error limit is an integer, not a string
    await own.listUsers({ params: { query: { limit: '5' } } });
  });

  it('sessions and messages: create, end, list a session page by page, search', async () => {
    const session = unwrap(await kmem.createSession({ body: { customerUserID: 'client-customer' } })).data;
    const sessionID = session.id;
    for (const content of ['The invoice for March is overdue.', 'I paid it yesterday by card.', 'Thanks, the invoice shows paid now.']) {
      unwrap(await kmem.createMessage({ body: { sessionID, role: 'user', content } }));
    }
    const listed = [];
    for await (const message of kmem.paginate('listMessages', { params: { query: { sessionID, limit: 1 } } })) listed.push(message.content);
    expect(listed).toHaveLength(3);
    // Message search follows writes within moments (the worker indexes the account's messages).
    const search = async () => unwrap(await kmem.searchMessages({ params: { query: { query: 'invoice paid', sessionID, topK: 2 } } }));
    let found = await search();
    for (let tries = 0; found.count === 0 && tries < 200; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      found = await search();
    }
    expect(found.count).toBeGreaterThan(0);
    expect(found.messages[0]?.sessionID).toBe(sessionID);
    const ended = unwrap(await kmem.endSession({ params: { path: { id: sessionID } } })).data;
    expect(ended.endedAt).not.toBeNull();
    expect(unwrap(await kmem.getSession({ params: { path: { id: sessionID } } })).data.endedAt).toBe(ended.endedAt);
  });

  it('files, memories and retrieval: small and presigned uploads, ingestion, a search with typed flags', async () => {
    const small = unwrap(await kmem.addFile('Saturn has 146 known moons; Titan is the largest.', { name: 'saturn.txt', fileType: 'text' }));
    const presigned = createKmemClient({ baseUrl: url, apiKey: keyA, largeFileBytes: 16 });
    const uploaded = unwrap(
      await presigned.upload('Jupiter has 95 known moons; Ganymede is the largest moon in the solar system.', { name: 'jupiter.txt' }),
    );
    expect(uploaded).toMatchObject({ name: 'jupiter.txt', size: 77 });
    const large = unwrap(await kmem.createFile({ body: { name: 'jupiter.txt', key: uploaded.key, fileType: 'text' } })).data;
    const memory = unwrap(await kmem.createMemory({ body: { name: 'moons', memoryType: 'vector' } })).data;
    unwrap(await kmem.addMemoryFiles({ body: { memoryID: memory.id, files: [small.id, large.id] } }));
    unwrap(await kmem.startIngestion({ body: { memoryID: memory.id } }));
    expect(await readyMemory(kmem, memory.id)).toMatchObject({ step: 'ready', fileCount: 2 });
    const file = unwrap(await kmem.getFile({ params: { path: { id: large.id } } })).data;
    expect(file.content).toMatch(/Ganymede/);
    const files = [];
    for await (const listed of kmem.paginate('listFiles', { params: { query: { limit: 1 } } })) files.push(listed.id);
    expect(files).toEqual(expect.arrayContaining([small.id, large.id]));
    const result = unwrap(
      await kmem.searchMemory({ params: { query: { memoryID: memory.id, query: 'largest moon of Jupiter', topK: 1, facts: false } } }),
    );
    expect(result.payload[0]?.content).toMatch(/Ganymede/);
    expect(result.sources[0]).toMatchObject({ id: large.id, name: 'jupiter.txt' });
    expect(result.payload[0]?.sourceID).toBe(large.id);
    const memories = [];
    for await (const listed of kmem.paginate('listMemories', { params: { query: { memoryType: 'vector' } } })) memories.push(listed.id);
    expect(memories).toContain(memory.id);
  });

  it('answers errors as typed values in the API words, never throwing', async () => {
    const memory = unwrap(await kmem.createMemory({ body: { name: 'private', memoryType: 'vector' } })).data;
    const foreign = await other.getMemory({ params: { path: { id: memory.id } } });
    expect(foreign.ok).toBe(false);
    if (foreign.ok) return;
    expect(foreign.error).toBeInstanceOf(KmemApiError);
    expect(foreign.error).toMatchObject({ status: 404, code: 'not_found', body: { status: 'not_found' } });
    const invalid = await kmem.createMemory({ body: { name: 'g', memoryType: 'graph' } });
    expect(invalid.ok || invalid.error.message).toBe('ontology: is required for a graph memory');
    const notGraph = await kmem.findMemoryEntities({ params: { path: { id: memory.id }, query: { name: 'x' } } });
    expect(notGraph.ok || notGraph.error.code).toBe('bad_request');
    const detail = await kmem.searchMemory({ params: { query: { memoryID: randomUUID(), query: 'x' } } });
    expect(detail.ok || [detail.error.code, detail.error.message]).toEqual(['not_found', expect.stringMatching(/memory/)]);
    const badKey = await createKmemClient({ baseUrl: url, apiKey: 'nope-nope-nope' }).listMemories();
    expect(badKey.ok || badKey.error.code).toBe('forbidden');
    const down = await createKmemClient({ baseUrl: 'http://127.0.0.1:9', apiKey: keyA }).getHealth();
    expect(down.ok || down.error.code).toBe('network');
    expect(() => unwrap(foreign)).toThrow(KmemApiError);
  });
});
