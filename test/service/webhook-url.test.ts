/**
 * A memory's webhookUrl: refused at create when it points at loopback, a private range or carries
 * credentials (unless KMEM_ALLOW_PRIVATE_URLS), and the account sees how deliveries go on the memory.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { createMemory } from '../../functions/core/use-cases/memories';
import { get, ingest, post, textFile, waitFor } from '../support/api';
import { testConfig, testDeps } from '../support/stores';

const strict = testDeps(testConfig({ KMEM_ALLOW_PRIVATE_URLS: 'false' }));
const failing = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(500).end('receiver is broken'));
});
let hookUrl = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(failing.address() as AddressInfo).port}/hook`;
});
afterAll(() => {
  failing.close();
  strict.documentClient.destroy();
});

describe('webhookUrl', () => {
  it('is refused on loopback, private ranges, internal names or with credentials, naming webhookUrl', async () => {
    const { account } = await createAccount(strict, `hooks-${process.pid}-${Date.now()}`);
    const refused = [
      'http://127.0.0.1:9/hook',
      'http://localhost/hook',
      'http://10.1.2.3/hook',
      'http://[::1]/hook',
      'https://user:secret@example.com/hook',
    ];
    for (const webhookUrl of refused) {
      await expect(createMemory(strict, account.id, { name: 'm', memoryType: 'vector', webhookUrl }), webhookUrl).rejects.toThrow(
        /^webhookUrl: /,
      );
    }
    // over HTTP the refusal is a 400 naming the field (the test runtime allows private addresses, not credentials)
    const answer = await post('/memories/create', { name: 'm', memoryType: 'vector', webhookUrl: 'http://user:pw@127.0.0.1/hook' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('webhookUrl: must not contain credentials');
  });

  it('shows the last delivery try and its failure on the memory', async () => {
    const file = await textFile('hooked.txt', 'A webhook receiver that answers 500 is still shown to the account.');
    const memory = (await post('/memories/create', { name: 'hooked', memoryType: 'vector', webhookUrl: hookUrl })).body.data;
    expect((await get(`/memories/get/${memory.id}`)).body.data.webhookDelivery).toBeNull();
    await ingest(memory, [file.id]);
    const seen = await waitFor(`/memories/get/${memory.id}`, (body) => body.data?.webhookDelivery?.lastStatus === 500);
    expect(seen.data.webhookDelivery).toMatchObject({
      outcome: 'retrying',
      lastStatus: 500,
      lastError: 'receiver answered HTTP 500',
      eventType: expect.stringMatching(/^(memory\.ingestion|file)\./),
      deadEvents: 0,
    });
  });
});
