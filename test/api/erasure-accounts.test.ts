/**
 * Deletion that erases (issue #26), whole owners: a deleted user's record is gone at once; a deleted memory leaves no object under its prefix and
 * no item of its own (segments, manifest, graph, links, exports' archives); `kmem accounts delete` leaves
 * nothing of the account in either store (its words, its id in any key or attribute) and its key stops
 * working, while another account's data stays.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { del, env, get, type Json, post, textFile, waitFor } from '../support/api';
import { itemsHolding, leftAfter, objectsHolding } from '../support/erasure-scan';
import { RUNTIME_AUTH_CACHE_SECONDS, RUNTIME_RETIRE_SECONDS } from '../support/runtime-settings';
import { kmemAccounts } from '../support/kmem-cli';
import { testDeps } from '../support/stores';

let stores: ReturnType<typeof testDeps>;
beforeAll(() => {
  stores = testDeps();
});
afterAll(() => stores.documentClient.destroy());

const word = () => `zq${randomBytes(6).toString('hex')}`;

/** A memory holding a file and a session with `text`, built, exported; answers it and its export's id. */
async function filledMemory(text: string, memoryType: 'vector' | 'graph', key?: string): Promise<{ memory: Json; exportId: string }> {
  const file = await textFile(`notes-${text}.txt`, `The archivist catalogued the folio ${text} in the east wing.`, key);
  const settings = memoryType === 'graph' ? { ontology: 'culture', factExtraction: true } : {};
  const memory = (await post('/memories/create', { name: `holds-${text}`, memoryType, ...settings }, key)).body.data;
  await post('/memories/add-files', { memoryID: memory.id, files: [file.id] }, key);
  await post('/memories/start-ingestion', { memoryID: memory.id }, key);
  await waitFor(`/memories/get/${memory.id}`, (b) => b.data?.step === 'ready', key, 90_000);
  const session = (await post('/sessions/create', { customerUserID: `reader-${text}` }, key)).body.data;
  await post('/messages/create', { sessionID: session.id, role: 'user', content: `Please fetch folio ${text} for me.` }, key);
  await post('/memories/add-sessions', { memoryID: memory.id, sessions: [session.id] }, key);
  const query = `/memory/?memoryID=${memory.id}&query=${encodeURIComponent(`fetch folio ${text}`)}&topK=10`;
  await waitFor(query, (b) => JSON.stringify(b.payload ?? []).includes('Please fetch'), key, 60_000);
  const exportId = (await post(`/memories/export/${memory.id}`, {}, key)).body.data.exportID as string;
  await waitFor(`/memories/export/${exportId}`, (b) => b.data?.state === 'completed', key, 60_000);
  return { memory, exportId };
}

describe('a deleted user', () => {
  it('is deleted whole at once: its names, email and phone are in no item', async () => {
    const text = word();
    const created = await post('/users/create', { email: `${text}@example.com`, firstName: text, phone: '+1 555 0100' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const user = created.body.data;
    expect((await itemsHolding(stores, [text])).length).toBe(1);
    expect((await del(`/users/delete/${user.id}`)).status).toBe(200);
    expect(await itemsHolding(stores, [text, user.id])).toEqual([]);
  });
});

describe('a deleted memory', () => {
  it('leaves no object under its prefix and no item of its own; its files and sessions stay the account’s', async () => {
    const text = word();
    const { memory, exportId } = await filledMemory(text, 'graph');
    const prefix = `gold/${memory.userID}/memories/${memory.id}/`;
    expect((await objectsHolding(stores, [prefix])).length).toBeGreaterThan(0);

    expect((await del(`/memories/delete/${memory.id}`)).status).toBe(200);
    expect((await get(`/memories/get/${memory.id}`)).status).toBe(404);
    expect((await get(`/memory/?memoryID=${memory.id}&query=${text}`)).status).toBe(404);
    // at once: the prefix (segments, manifests, chunk lists, export archives) and the memory's items are gone
    expect(await objectsHolding(stores, [prefix])).toEqual([]);
    const items = await itemsHolding(stores, [memory.id]);
    expect(items.filter((item) => String(item.pk).includes(memory.id))).toEqual([]);
    // what still names the memory: its export's record (no text), which answers `failed`: the archive is gone
    expect(items.map((item) => item.kind)).toEqual(items.length ? ['memoryExport'] : []);
    expect((await get(`/memories/export/${exportId}`)).body.data).toMatchObject({ state: 'failed', url: null });
    // the word stays only in what the account still owns: the file (bytes, text) and the session (message index, summary)
    const left = await objectsHolding(stores, [text]);
    expect(left.filter((key) => !/^(bronze|silver)\/|\/messages\/index\/|\/sessions\//.test(key))).toEqual([]);
  }, 180_000);
});

describe('kmem accounts delete', () => {
  it('erases everything the account owns from both stores and revokes its key; another account keeps its data', async () => {
    const name = `erase-${word()}`;
    const created = await kmemAccounts(env().dataDir, 'create', name);
    expect(created.code, created.stderr).toBe(0);
    const key = created.stdout.at(-1) as string;
    const accountId = /\(([^)]+)\); the key below/.exec(created.stderr)?.[1] as string;
    expect(accountId).toBeTruthy();
    const [theirs, ours] = [word(), word()];
    await filledMemory(theirs, 'vector', key);
    expect((await post('/users/create', { email: `${theirs}@example.com`, firstName: theirs }, key)).status).toBe(200);
    const kept = await textFile(`keep-${ours}.txt`, `Another tenant's ledger ${ours}.`);
    expect((await objectsHolding(stores, [theirs, accountId])).length).toBeGreaterThan(0);

    const unconfirmed = await kmemAccounts(env().dataDir, 'delete', name);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toMatch(/--yes/);
    expect((await get('/users/list', key)).status).toBe(200);

    // the second sweep after the key cache time (the runtime's KMEM_AUTH_CACHE_SECONDS): a request a cached key
    // still let in (its rate counter, say) is swept too, as the command's default settle (cache time + 10 s) ensures
    const settle = String(RUNTIME_AUTH_CACHE_SECONDS + 1);
    const erased = await kmemAccounts(env().dataDir, 'delete', name, '--yes', '--settle', settle);
    expect(erased.code, erased.stderr).toBe(0);
    expect(erased.stdout.at(-1)).toMatch(/^keys revoked 1, objects deleted [1-9]\d*, items deleted [1-9]\d*$/);
    // the key stops working within the runtime's key cache time
    const deadline = Date.now() + 10_000;
    let status = (await get('/users/list', key)).status;
    while (status !== 403 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      status = (await get('/users/list', key)).status;
    }
    expect(status).toBe(403);
    const left = await leftAfter(stores, [theirs, accountId], (RUNTIME_RETIRE_SECONDS + 5) * 1000);
    expect(left).toEqual({ objects: [], items: [] });
    // a repeated delete finds no such account
    expect((await kmemAccounts(env().dataDir, 'delete', name, '--yes', '--settle', '0')).code).toBe(1);
    // the other account's file is untouched
    expect((await get(`/files/get/${kept.id}`)).status).toBe(200);
    expect((await objectsHolding(stores, [ours])).length).toBeGreaterThan(0);
  }, 240_000);
});
