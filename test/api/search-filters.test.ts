/**
 * File metadata and search filters over HTTP through the local runtime: metadata on files/create,
 * answered by files/get and files/list, replaced by POST /files/metadata/{id} and seen by the next
 * filtered query; `filter` on GET /memory/ and GET /messages/search; 400s naming the condition;
 * another account's file ids find nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { env, get, listAll, post, upload, waitFor, type Json } from '../support/api';

const q = (filter: unknown) => `&filter=${encodeURIComponent(typeof filter === 'string' ? filter : JSON.stringify(filter))}`;
const ask = (memoryId: string, query: string, extra = '', key?: string) =>
  get(`/memory/?memoryID=${memoryId}&query=${encodeURIComponent(query)}${extra}`, key);

/** Adds the files, starts ingestion and waits (longer than the shared helper: the machine may be busy). */
async function ingest(memory: Json, fileIds: string[], key?: string): Promise<Json> {
  expect((await post('/memories/add-files', { memoryID: memory.id, files: fileIds }, key)).status).toBe(200);
  expect((await post('/memories/start-ingestion', { memoryID: memory.id }, key)).status).toBe(200);
  const done = (b: Json) => b.data?.step === 'ready' || b.data?.step === 'failed';
  return (await waitFor(`/memories/get/${memory.id}`, done, key, 120_000)).data as Json;
}

async function fileWith(name: string, text: string, metadata?: Array<{ key: string; value: string }>, key?: string): Promise<Json> {
  const uploaded = await upload(name, text, key);
  const created = await post(
    '/files/create',
    { name, key: uploaded.body.data.key, fileType: 'text', ...(metadata ? { metadata } : {}) },
    key,
  );
  expect(created.status).toBe(200);
  return created.body.data as Json;
}

describe('file metadata and search filters over HTTP', () => {
  let memory: Json;
  let tagged: Json;
  let plain: Json;

  beforeAll(async () => {
    tagged = await fileWith('otters-de.txt', 'Otters hold hands while they sleep on the water.', [
      { key: 'lang', value: 'de' },
      { key: 'team', value: 'wildlife' },
    ]);
    plain = await fileWith('otters-en.txt', 'Otters crack shellfish open with stones they keep.');
    memory = (await post('/memories/create', { name: 'otters', memoryType: 'vector' })).body.data;
    expect((await ingest(memory, [tagged.id, plain.id])).step).toBe('ready');
  }, 150_000);

  it('answers metadata on files/get and files/list ([] when none)', async () => {
    const got = await waitFor(`/files/get/${tagged.id}`, (b) => b.data?.state === 'ready');
    expect(got.data.metadata).toEqual([
      { key: 'lang', value: 'de' },
      { key: 'team', value: 'wildlife' },
    ]);
    // a file of its own without metadata: the next test gives the shared plain file some, in any order
    const bare = await fileWith('otters-bare.txt', 'Otters spend most of their lives in the water.');
    const listed = await listAll('/files/list?limit=100', 'files');
    expect(listed.find((f) => f.id === bare.id)?.metadata).toEqual([]);
  });

  it('filters GET /memory/ by metadata, and sees a metadata change at the next query', async () => {
    const german = await ask(memory.id, 'otters', `&topK=5${q({ metadata: { lang: 'de' } })}`);
    expect(german.status).toBe(200);
    expect(german.body.sources.map((s: Json) => s.id)).toEqual([tagged.id]);
    const replaced = await post(`/files/metadata/${plain.id}`, { metadata: [{ key: 'lang', value: 'de' }] });
    expect(replaced.status).toBe(200);
    expect(replaced.body.data.metadata).toEqual([{ key: 'lang', value: 'de' }]);
    const after = await ask(memory.id, 'otters', `&topK=5${q({ metadata: { lang: ['de'] } })}`);
    expect(after.body.sources.map((s: Json) => s.id).sort()).toEqual([tagged.id, plain.id].sort());
    expect((await get(`/memories/get/${memory.id}`)).body.data.step).toBe('ready');
  });

  it('answers 400 naming an unknown or malformed condition, and a bad metadata value', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ colour: ['red'] }, /filter: unknown condition 'colour'/],
      ['{not json', /filter: must be a JSON object/],
      [{ fileTypes: ['pdf'] }, /filter\.fileTypes\.0: must be one of/],
      [{ roles: 'user' }, /filter\.roles: must be an array/],
      [{ metadata: { lang: 3 } }, /filter\.metadata\.lang: must be a string or an array of strings/],
    ];
    for (const [filter, message] of cases) {
      const answer = await ask(memory.id, 'otters', q(filter));
      expect(answer.status).toBe(400);
      expect(answer.body.detail).toMatch(message);
      const messages = await get(`/messages/search?query=otters${q(filter)}`);
      expect(messages.status).toBe(400);
      expect(messages.body.error).toMatch(message);
    }
    const bad = await post(`/files/metadata/${plain.id}`, { metadata: [{ key: 'bad key', value: 'x' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/metadata\.0\.key: must be 1-64 letters/);
    const tooMany = Array.from({ length: 33 }, (_, i) => ({ key: `k${i}`, value: 'v' }));
    expect((await post(`/files/metadata/${plain.id}`, { metadata: tooMany })).status).toBe(400);
  });

  it("finds nothing by another account's file ids", { timeout: 150_000 }, async () => {
    const theirs = await fileWith('otters-b.txt', 'Otters groom their thick fur for hours.', undefined, env().keyB);
    const theirMemory = (await post('/memories/create', { name: 'b-otters', memoryType: 'vector' }, env().keyB)).body.data;
    expect((await ingest(theirMemory, [theirs.id], env().keyB)).step).toBe('ready');
    expect((await ask(theirMemory.id, 'otters', '', env().keyB)).body.payload.length).toBeGreaterThan(0);
    const crossed = await ask(theirMemory.id, 'otters', q({ fileIDs: [tagged.id, plain.id] }), env().keyB);
    expect(crossed.status).toBe(200);
    expect(crossed.body).toMatchObject({ payload: [], facts: [], sources: [] });
  });

  it('filters GET /messages/search by session metadata and role', { timeout: 60_000 }, async () => {
    const session = (await post('/sessions/create', { metadata: [{ key: 'channel', value: 'phone' }] })).body.data;
    await post('/messages/create', { sessionID: session.id, role: 'user', content: 'Do sea otters use tools?' });
    await post('/messages/create', { sessionID: session.id, role: 'assistant', content: 'Yes, sea otters use stones as tools.' });
    const filter = q({ metadata: { channel: 'phone' }, roles: ['assistant'] });
    const found = await waitFor(
      `/messages/search?query=${encodeURIComponent('sea otters tools')}${filter}`,
      (b) => b.count > 0,
      undefined,
      50_000,
    );
    expect(found.messages.map((m: Json) => m.content)).toEqual(['Yes, sea otters use stones as tools.']);
  });
});
