/** An import's webhook events reach the memory's receiver on 127.0.0.1, signed, with the import's counts. */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { get, post, upload, type Json } from '../support/api';
import { makeZip } from '../support/archives';
import { testDeps } from '../support/stores';

interface Received {
  id: string;
  type: string;
  data: Json;
  headers: IncomingMessage['headers'];
  body: string;
}

const received: Received[] = [];
let url = '';
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  req.on('end', () => {
    received.push({ ...(JSON.parse(body) as Omit<Received, 'headers' | 'body'>), headers: req.headers, body });
    res.writeHead(204).end();
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/imports`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function importInto(memoryID: string, name: string, bytes: Uint8Array): Promise<string> {
  const uploaded = await upload(name, bytes, undefined, 'application/octet-stream');
  const started = await post('/files/import', { archiveKey: uploaded.body.data.key, memoryID });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return started.body.data.importID as string;
}

async function eventOf(type: string, importID: string): Promise<Received> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = received.find((event) => event.type === type && event.data.importID === importID);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no ${type} event for ${importID}; got ${received.map((e) => e.type).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it('delivers file.import.completed and file.import.failed to the memory webhook, signed', async () => {
  const memory = (await post('/memories/create', { name: 'imported', memoryType: 'vector', webhookUrl: url })).body.data as Json;
  const good = await importInto(
    memory.id,
    `hooked-${Date.now()}.zip`,
    await makeZip({
      'a.txt': 'Lighthouses guide ships along rocky coasts at night.',
      'b.txt': 'Beekeepers smoke the hive to calm the bees before opening it.',
    }),
  );
  const completed = await eventOf('file.import.completed', good);
  expect(completed.data).toMatchObject({
    importID: good,
    memoryID: memory.id,
    total: 2,
    created: 2,
    updated: 0,
    unchanged: 0,
    deleted: 0,
    failed: 0,
    errors: [],
  });
  expect((await get(`/files/import/${good}`)).body.data).toMatchObject({ state: 'completed', created: 2 });

  const bomb = await importInto(memory.id, `bomb-${Date.now()}.zip`, await makeZip({ 'zeros.bin': new Uint8Array(8 << 20) }));
  const failed = await eventOf('file.import.failed', bomb);
  expect(failed.data).toMatchObject({ importID: bomb, memoryID: memory.id, created: 0 });
  expect(failed.data.errors[0].error).toMatch(/decompresses more than 100 times/);

  const stores = testDeps();
  const secret = (await stores.accounts.get(memory.userID as string))?.webhookSecret ?? '';
  stores.documentClient.destroy();
  const verifier = new Webhook(secret);
  for (const event of [completed, failed]) {
    expect(() => verifier.verify(event.body, event.headers as Record<string, string>)).not.toThrow();
    expect(event.headers['webhook-id']).toBe(event.id);
  }
  expect(
    received
      .filter((event) => event.type.startsWith('file.import.'))
      .map((event) => event.type)
      .sort(),
  ).toEqual(['file.import.completed', 'file.import.failed']);
}, 60_000);
