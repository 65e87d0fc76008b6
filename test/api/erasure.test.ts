/**
 * Deletion that erases (issue #26): a unique word in a file and another in a message; after the file is
 * removed and deleted and the message deleted, no query finds either at once, and within the stated bound
 * (KMEM_RETIRE_AFTER_SECONDS after the rebuilds, docs/backups.md) neither is in any object of the local S3 store
 * nor in any item of the table (both read whole through the SDK), exports included.
 */
import { randomBytes } from 'node:crypto';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { del, get, type Json, post, textFile, waitFor } from '../support/api';
import { testDeps } from '../support/stores';

let stores: ReturnType<typeof testDeps>;
beforeAll(() => {
  stores = testDeps();
});
afterAll(() => stores.documentClient.destroy());

/** KMEM_RETIRE_AFTER_SECONDS of the test runtime (test/support/global-setup.ts). */
const RUNTIME_RETIRE_SECONDS = 10;

const word = () => `zq${randomBytes(6).toString('hex')}`;

/** Keys of every object of the bucket whose bytes hold `text` (gzipped archives are read decompressed). */
async function objectsHolding(texts: string[]): Promise<string[]> {
  const { constants, gunzipSync } = await import('node:zlib');
  const found: string[] = [];
  let token: string | undefined;
  do {
    const page = await stores.s3.send(new ListObjectsV2Command({ Bucket: stores.config.bucketName, ContinuationToken: token }));
    for (const object of page.Contents ?? []) {
      const out = await stores.s3
        .send(new GetObjectCommand({ Bucket: stores.config.bucketName, Key: object.Key }))
        .catch((error: Error) => (error.name === 'NoSuchKey' ? undefined : Promise.reject(error))); // deleted since the listing
      let bytes = Buffer.from((await out?.Body?.transformToByteArray()) ?? []);
      // archives are read decompressed (as far as they go: a truncated one too)
      if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH });
      const text = bytes.toString('latin1');
      if (texts.some((t) => text.includes(t))) found.push(object.Key ?? '');
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return found;
}

async function itemsHolding(texts: string[]): Promise<Json[]> {
  const found: Json[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await stores.documentClient.send(new ScanCommand({ TableName: stores.config.tableName, ExclusiveStartKey: start }));
    found.push(...(page.Items ?? []).filter((item) => texts.some((t) => JSON.stringify(item).includes(t))));
    start = page.LastEvaluatedKey;
  } while (start);
  return found;
}

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
  expect((await objectsHolding([inFile, inMessage])).length).toBeGreaterThan(0);

  expect((await del(`/memories/delete-file?memoryID=${memory.id}&fileID=${file.id}`)).status).toBe(200);
  expect((await del(`/files/delete/${file.id}`)).status).toBe(200);
  expect((await del(`/messages/delete/${message.id}`)).status).toBe(200);
  // at once: no answer shows either
  expect(await finds(memory.id, inFile)).toBe(false);
  expect(await finds(memory.id, inMessage)).toBe(false);
  expect(JSON.stringify((await get(`/messages/search?query=${inMessage}`)).body)).not.toContain(inMessage);

  // within the bound: nothing stored holds either word
  const deadline = Date.now() + (RUNTIME_RETIRE_SECONDS + 60) * 1000;
  let left: { objects: string[]; items: Json[] } = { objects: [], items: [] };
  do {
    await new Promise((resolve) => setTimeout(resolve, 5_000)); // each look reads the whole bucket
    left = { objects: await objectsHolding([inFile, inMessage]), items: await itemsHolding([inFile, inMessage]) };
  } while ((left.objects.length > 0 || left.items.length > 0) && Date.now() < deadline);
  expect(left).toEqual({ objects: [], items: [] });
  expect(await finds(memory.id, inFile)).toBe(false);
  expect(await finds(memory.id, inMessage)).toBe(false);
  expect((await get(`/memories/export/${exported}`)).body.data).toMatchObject({ state: 'failed', url: null });
}, 300_000);
