/** A memory's webhook, end to end: a receiver on 127.0.0.1 that is down at first, then verifies every signature. */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, ingest, post, textFile } from '../support/api';
import { testDeps } from '../support/stores';

interface Received {
  id: string;
  type: string;
  data: Record<string, unknown>;
  headers: IncomingMessage['headers'];
  body: string;
}

const received: Received[] = [];
const refusedOnce = new Set<string>();
let url = '';
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  req.on('end', () => {
    if (req.url === '/missing') {
      res.writeHead(404).end();
      return;
    }
    const id = String(req.headers['webhook-id']);
    if (!refusedOnce.has(id)) {
      refusedOnce.add(id); // down for the first try of every event
      res.writeHead(503).end();
      return;
    }
    const event = JSON.parse(body) as Omit<Received, 'headers' | 'body'>;
    received.push({ ...event, headers: req.headers, body });
    res.writeHead(204).end();
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('webhooks', () => {
  it('delivers signed ingestion and file events, retrying while the receiver is down', async () => {
    const good = await textFile('ok.txt', 'The glacier retreats a little further every summer.');
    const bad = await post('/files/create', { name: 'gone.txt', fileType: 'text', external_uri: url.replace('/hooks', '/missing') });
    const memory = (await post('/memories/create', { name: 'hooked', memoryType: 'vector', webhookUrl: url })).body.data;
    const done = await ingest(memory, [good.id, bad.body.data.id]);
    expect(done.step).toBe('ready');
    expect(done.failedFiles).toEqual([{ fileID: bad.body.data.id, error: expect.any(String) }]);

    const deadline = Date.now() + 20_000;
    while (received.length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const types = received.map((event) => event.type).sort();
    expect(types).toEqual(['file.failed', 'file.ready', 'memory.ingestion.completed', 'memory.ingestion.started']);

    const stores = testDeps();
    const accountId = memory.userID as string;
    const secret = (await stores.accounts.get(accountId))?.webhookSecret ?? '';
    stores.documentClient.destroy();
    const verifier = new Webhook(secret);
    for (const event of received) {
      expect(refusedOnce.has(event.id)).toBe(true); // each was refused once, then retried
      expect(() => verifier.verify(event.body, event.headers as Record<string, string>)).not.toThrow();
    }
    const completed = received.find((event) => event.type === 'memory.ingestion.completed');
    expect(completed?.data).toMatchObject({ memoryID: memory.id, failedFiles: [{ fileID: bad.body.data.id }], failedFileCount: 1 });
    const started = received.find((event) => event.type === 'memory.ingestion.started');
    expect(started?.data).toMatchObject({ memoryID: memory.id, fileCount: 2 });
    expect((started?.data as { files: string[] }).files).toHaveLength(2);
    expect((await get(`/memories/get/${memory.id}`)).body.data.step).toBe('ready');
  }, 40_000);
});
