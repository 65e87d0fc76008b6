/**
 * An upsert racing the earlier processing of the same file: the newer content wins, whichever run ends
 * first. The older content is held back by a site on 127.0.0.1 that answers it only when the test says so,
 * while files/create (sourceKey) replaces the file's address; the real worker runs both processings over
 * in-memory stores.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { drainQueue } from '../support/drain-queue';
import { memoryDeps } from '../support/memory';
import { runWork } from '../../functions/worker/dispatch';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { createOrUpdateFile } from '../../functions/core/use-cases/file-sources';
import { objectKeys } from '../../functions/core/object-keys';

const OLD_TEXT = 'The ferry to the island leaves at seven every morning.';
const NEW_TEXT = 'The ferry now leaves at nine, and a second one sails at noon.';

const deps = memoryDeps();
let accountId = '';
let base = '';
const held: ServerResponse[] = [];
let heldAsked = 0;
const site = createServer((req, res) => {
  if (req.url?.startsWith('/old')) {
    heldAsked++;
    held.push(res); // answered when the test releases it
    return;
  }
  res.writeHead(200, { 'content-type': 'text/plain' }).end(NEW_TEXT);
});

beforeAll(async () => {
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  accountId = (await createAccount(deps, `race-${process.pid}-${Date.now()}`)).account.id;
});
afterAll(async () => {
  site.closeAllConnections();
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

function releaseOld(): void {
  for (const res of held.splice(0)) res.writeHead(200, { 'content-type': 'text/plain' }).end(OLD_TEXT);
}

/** Starts the queued processing of the first content; answers its run, which waits at the held address. */
async function startOldProcessing(sourceKey: string) {
  const file = await createOrUpdateFile(deps, accountId, {
    name: 'ferry.txt',
    fileType: 'text',
    externalUrl: `${base}/old-${sourceKey}`,
    sourceKey,
  });
  const [message] = await deps.queue.receive(1, 60);
  if (!message) throw new Error('no processing queued');
  const asked = heldAsked;
  const run = runWork(deps.worker, JSON.parse(message.body), { attempt: 1, workId: message.messageId }).then(() =>
    deps.queue.delete(message.receiptHandle),
  );
  while (heldAsked === asked) await new Promise((resolve) => setTimeout(resolve, 20));
  return { file, run };
}

/** Runs the messages visible now (the held run's own stays in flight, so drainQueue would wait for it). */
async function runVisible(): Promise<void> {
  for (const message of await deps.queue.receive(10, 60)) {
    await runWork(deps.worker, JSON.parse(message.body), { attempt: 1, workId: message.messageId });
    await deps.queue.delete(message.receiptHandle);
  }
}

/** The file's text as stored and every text object kept under it. */
async function storedTexts(fileId: string) {
  const file = await deps.files.get(accountId, fileId);
  const text = Buffer.from((await deps.objects.get(file?.silverTranscriptKey ?? '')) ?? []).toString('utf8');
  const kept = await deps.objects.list(objectKeys.fileSilverPrefix(accountId, fileId));
  const texts = await Promise.all(kept.map(async (key) => Buffer.from((await deps.objects.get(key)) ?? []).toString('utf8')));
  return { file, text, texts };
}

it('keeps the newer content when the older processing ends last', async () => {
  const { file, run } = await startOldProcessing('late');
  await createOrUpdateFile(deps, accountId, { name: 'ferry.txt', fileType: 'text', externalUrl: `${base}/new`, sourceKey: 'late' });
  await runVisible(); // the newer content is processed and settles first
  expect((await deps.files.get(accountId, file.id))?.state).toBe('ready');
  releaseOld();
  await run;
  const stored = await storedTexts(file.id);
  expect(stored.file).toMatchObject({ state: 'ready', externalUrl: `${base}/new` });
  expect(stored.text).toBe(NEW_TEXT);
  expect(stored.texts).toEqual([NEW_TEXT]); // the older run's text did not overwrite it, nor stay behind
});

it('keeps the newer content when the older processing ends first', async () => {
  const { file, run } = await startOldProcessing('early');
  await createOrUpdateFile(deps, accountId, { name: 'ferry.txt', fileType: 'text', externalUrl: `${base}/new`, sourceKey: 'early' });
  releaseOld();
  await run; // ends while the file waits for its newer content: it must not settle the file
  await drainQueue(deps);
  const stored = await storedTexts(file.id);
  expect(stored.file).toMatchObject({ state: 'ready', externalUrl: `${base}/new` });
  expect(stored.text).toBe(NEW_TEXT);
  expect(stored.texts).toEqual([NEW_TEXT]);
});
