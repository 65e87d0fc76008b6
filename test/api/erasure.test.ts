/**
 * Deletion that erases (issue #26): a unique word in a file and another in a message; after the file is
 * removed and deleted and the message deleted, no query finds either at once, and within the stated bound
 * (KMEM_RETIRE_AFTER_SECONDS after the rebuilds, docs/backups.md) neither is in any object of the local S3 store
 * nor in any item of the table (both read whole through the SDK), exports included.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { del, get, post, textFile, waitFor } from '../support/api';
import { leftAfter, objectsHolding } from '../support/erasure-scan';
import { RUNTIME_RETIRE_SECONDS } from '../support/runtime-settings';
import { testDeps } from '../support/stores';

let stores: ReturnType<typeof testDeps>;
beforeAll(() => {
  stores = testDeps();
});
afterAll(() => stores.documentClient.destroy());

const word = () => `zq${randomBytes(6).toString('hex')}`;

const finds = async (memoryId: string, text: string) =>
  JSON.stringify((await get(`/memory/?memoryID=${memoryId}&query=${encodeURIComponent(text)}`)).body.payload).includes(text);

it('erases a deleted file and a deleted message from every object and item, and no query finds them', async () => {
  const [inFile, inMessage] = [word(), word()];
  const file = await textFile('erase-me.txt', `The courier left the parcel marked ${inFile} at the depot.`);
  const memory = (await post('/memories/create', { name: 'erasure', memoryType: 'vector' })).body.data;
  await post('/memories/add-files', { memoryID: memory.id, files: [file.id] });
  await post('/memories/start-ingestion', { memoryID: memory.id });
  await waitFor(`/memories/get/${memory.id}`, (b) => b.data?.step === 'ready', undefined, 60_000);
  const session = (await post('/sessions/create', { customerUserID: 'eraser' })).body.data;
  const message = (await post('/messages/create', { sessionID: session.id, role: 'user', content: `My locker code is ${inMessage}.` })).body
    .data;
  await post('/messages/create', { sessionID: session.id, role: 'assistant', content: 'Noted, I will remember the locker.' });
  await post('/memories/add-sessions', { memoryID: memory.id, sessions: [session.id] });
  await waitFor(
    `/memory/?memoryID=${memory.id}&query=${inMessage}`,
    (b) => JSON.stringify(b.payload ?? []).includes(inMessage),
    undefined,
    60_000,
  );
  expect(await finds(memory.id, inFile)).toBe(true);
  const exported = (await post(`/memories/export/${memory.id}`, {})).body.data.exportID;
  await waitFor(`/memories/export/${exported}`, (b) => b.data?.state === 'completed', undefined, 60_000);
  expect((await objectsHolding(stores, [inFile, inMessage])).length).toBeGreaterThan(0);

  expect((await del(`/memories/delete-file?memoryID=${memory.id}&fileID=${file.id}`)).status).toBe(200);
  expect((await del(`/files/delete/${file.id}`)).status).toBe(200);
  expect((await del(`/messages/delete/${message.id}`)).status).toBe(200);
  // at once: no answer shows either
  expect(await finds(memory.id, inFile)).toBe(false);
  expect(await finds(memory.id, inMessage)).toBe(false);
  expect(JSON.stringify((await get(`/messages/search?query=${inMessage}`)).body)).not.toContain(inMessage);

  // within the bound: nothing stored holds either word
  const left = await leftAfter(stores, [inFile, inMessage], (RUNTIME_RETIRE_SECONDS + 60) * 1000);
  expect(left).toEqual({ objects: [], items: [] });
  expect(await finds(memory.id, inFile)).toBe(false);
  expect(await finds(memory.id, inMessage)).toBe(false);
  expect((await get(`/memories/export/${exported}`)).body.data).toMatchObject({ state: 'failed', url: null });
}, 300_000);
