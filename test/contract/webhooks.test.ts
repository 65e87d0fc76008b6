/**
 * Webhook delivery against the run's real dynalite, the real fetch sender and a real receiver on 127.0.0.1
 * that checks signatures with the official standardwebhooks package. The queue is a recorder: each
 * recorded re-enqueue is delivered again at once, as the worker would after the delay.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../functions/config';
import type { AwsContainer } from '../../functions/adapters/container';
import { composeLocalDeps } from '../../functions/local/compose';
import { keys } from '../../functions/adapters/dynamodb/keys';
import { WebhookRepository } from '../../functions/adapters/dynamodb/repositories/webhook-repository';
import { PinnedWebhookSender } from '../../functions/adapters/webhooks/webhook-sender';
import { resolveHost } from '../../functions/adapters/net/dns-resolver';
import { ConflictError } from '../../functions/core/errors';
import type { Account } from '../../functions/core/model';
import type { QueuePort } from '../../functions/core/ports';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { type DeliveryResult, deliverWebhook, type WebhookDeps } from '../../functions/core/use-cases/webhooks';
import { emitWebhookEvent, type WebhookDeliverMessage } from '../../functions/core/webhooks/outbox';

type Received = { headers: Record<string, string>; body: string; verified: boolean };

/**
 * A receiver answering the queued statuses in turn (then 200); `hang` never answers. With `holdUntil`,
 * no request is answered before that many arrived (to make tries overlap).
 */
class Receiver {
  readonly received: Received[] = [];
  private server: Server | undefined;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly secret: string,
    private readonly answers: (number | 'hang')[] = [],
    private readonly holdUntil = 0,
  ) {}

  async listen(port = 0): Promise<number> {
    const server = createServer((req, res) => void this.handle(req, res));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    this.received.push({ headers, body, verified: this.verifies(body, headers) });
    if (this.received.length < this.holdUntil) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else for (const release of this.waiting.splice(0)) release();
    const answer = this.answers.shift() ?? 200;
    if (answer === 'hang') return;
    res.writeHead(answer).end();
  }

  private verifies(body: string, headers: Record<string, string>): boolean {
    try {
      new Webhook(this.secret).verify(body, headers);
      return true;
    } catch {
      return false;
    }
  }
}

/** The queue recorder: what was sent, with its delay. */
class RecordingQueue implements QueuePort {
  readonly sent: { body: WebhookDeliverMessage; delaySeconds: number | undefined }[] = [];
  async send(body: unknown, options?: { delaySeconds?: number }): Promise<void> {
    this.sent.push({ body: body as WebhookDeliverMessage, delaySeconds: options?.delaySeconds });
  }
}

let container: AwsContainer;
let account: Account;
let repository: WebhookRepository;

beforeAll(async () => {
  const env = inject('kmem');
  container = composeLocalDeps(
    loadConfig({
      ...process.env,
      KMEM_DYNAMODB_ENDPOINT: env.dynamodbEndpoint,
      KMEM_S3_ENDPOINT: env.s3Endpoint,
      KMEM_DATA_DIR: env.dataDir,
      AWS_REGION: 'local',
    }),
  );
  account = (await createAccount(container, `webhooks-${Date.now()}-${process.pid}`)).account;
  repository = new WebhookRepository(container.table);
});

afterAll(() => container?.documentClient.destroy());

function setup(options: { allowPrivate?: boolean; maxAttempts?: number; timeoutMs?: number } = {}) {
  const queue = new RecordingQueue();
  const deps: WebhookDeps = {
    webhooks: repository,
    accounts: container.accounts,
    memories: container.memories,
    queue,
    sender: new PinnedWebhookSender(),
    resolve: resolveHost,
    clock: container.clock,
    ids: container.ids,
    config: {
      allowPrivateUrls: options.allowPrivate ?? true,
      webhooks: { maxAttempts: options.maxAttempts ?? 4, backoffSeconds: 30, timeoutMs: options.timeoutMs ?? 2_000 },
    },
  };
  return { deps, queue };
}

async function emit(deps: WebhookDeps, url: string): Promise<string> {
  const id = await emitWebhookEvent(deps, { accountId: account.id, url, type: 'file.ready', data: { fileID: 'f-1' } });
  if (!id) throw new Error('no event emitted');
  return id;
}

/** Delivers every queued message (also those queued meanwhile), as the worker would; answers the outcomes. */
async function drain(deps: WebhookDeps, queue: RecordingQueue, before?: () => Promise<void>) {
  const results: DeliveryResult[] = [];
  // The array iterator sees entries appended while iterating.
  for (const [i, entry] of queue.sent.entries()) {
    if (i > 0 && before) await before();
    results.push(await deliverWebhook(deps, entry.body));
  }
  return results;
}

describe('webhook delivery', () => {
  it('delivers once, with a signature the receiver verifies, and leaves a delivered event alone', async () => {
    const receiver = new Receiver(account.webhookSecret);
    const port = await receiver.listen();
    const { deps, queue } = setup();
    const id = await emit(deps, `http://127.0.0.1:${port}/hook`);
    const body = { kind: 'webhook.deliver', accountId: account.id, eventId: id };
    expect(queue.sent).toEqual([{ body, delaySeconds: undefined }]);

    expect((await drain(deps, queue)).map((r) => r.outcome)).toEqual(['delivered']);
    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    expect(got?.verified).toBe(true);
    expect(got?.headers).toMatchObject({
      'webhook-id': id,
      'user-agent': 'kmem-webhooks/1',
      'content-type': 'application/json',
    });
    expect(JSON.parse(got?.body ?? '')).toMatchObject({ id, type: 'file.ready', data: { fileID: 'f-1' } });
    expect(await repository.get(account.id, id)).toMatchObject({ state: 'delivered', attempts: 1, lastStatus: 200 });

    expect(await deliverWebhook(deps, { kind: 'webhook.deliver', accountId: account.id, eventId: id })).toMatchObject({
      outcome: 'skipped',
    });
    expect(receiver.received).toHaveLength(1);
    await receiver.close();
  });

  it('retries after a 500 and delivers the same event id', async () => {
    const receiver = new Receiver(account.webhookSecret, [500, 200]);
    const port = await receiver.listen();
    const { deps, queue } = setup();
    const id = await emit(deps, `http://127.0.0.1:${port}/hook`);

    expect((await drain(deps, queue)).map((r) => r.outcome)).toEqual(['retry', 'delivered']);
    expect(queue.sent.map((s) => s.delaySeconds)).toEqual([undefined, 30]);
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([id, id]);
    expect(receiver.received.map((r) => JSON.parse(r.body).id)).toEqual([id, id]);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    expect(await repository.get(account.id, id)).toMatchObject({ state: 'delivered', attempts: 2, lastError: null });
    await receiver.close();
  });

  it('retries while the receiver is down and delivers once it is up', async () => {
    const probe = new Receiver(account.webhookSecret);
    const port = await probe.listen();
    await probe.close();
    const receiver = new Receiver(account.webhookSecret);
    const { deps, queue } = setup();
    const id = await emit(deps, `http://127.0.0.1:${port}/hook`);

    let downFor = 1;
    const results = await drain(deps, queue, async () => {
      if (downFor-- === 0) await receiver.listen(port);
    });
    expect(results.map((r) => r.outcome)).toEqual(['retry', 'retry', 'delivered']);
    expect(results[0]?.lastError).toBe('connection failed: ECONNREFUSED');
    expect(queue.sent.map((s) => s.delaySeconds)).toEqual([undefined, 30, 60]);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]?.verified).toBe(true);
    expect(await repository.get(account.id, id)).toMatchObject({ state: 'delivered', attempts: 3 });
    await receiver.close();
  });

  it('gives up after maxAttempts and keeps the last error', async () => {
    const receiver = new Receiver(account.webhookSecret, [503, 503, 503, 503, 503]);
    const port = await receiver.listen();
    const { deps, queue } = setup({ maxAttempts: 4 });
    const id = await emit(deps, `http://127.0.0.1:${port}/hook`);

    expect((await drain(deps, queue)).map((r) => r.outcome)).toEqual(['retry', 'retry', 'retry', 'dead']);
    expect(queue.sent.map((s) => s.delaySeconds)).toEqual([undefined, 30, 60, 120]);
    expect(receiver.received).toHaveLength(4);
    const stored = await repository.get(account.id, id);
    expect(stored).toMatchObject({ state: 'dead', attempts: 4, lastStatus: 503, nextAttemptAt: null });
    expect(stored?.lastError).toBe('receiver answered HTTP 503');
    await receiver.close();
  });

  it('counts a receiver that does not answer in time as a failed try', async () => {
    const receiver = new Receiver(account.webhookSecret, ['hang']);
    const port = await receiver.listen();
    const { deps, queue } = setup({ timeoutMs: 300 });
    await emit(deps, `http://127.0.0.1:${port}/hook`);

    const results = await drain(deps, queue);
    expect(results.map((r) => r.outcome)).toEqual(['retry', 'delivered']);
    expect(results[0]?.lastError).toBe('timed out after 300 ms');
    await receiver.close();
  });

  it('counts one of two overlapping tries of the same message and queues one retry', async () => {
    const receiver = new Receiver(account.webhookSecret, [500, 500], 2);
    const port = await receiver.listen();
    const { deps, queue } = setup();
    const id = await emit(deps, `http://127.0.0.1:${port}/hook`);
    const message = { kind: 'webhook.deliver' as const, accountId: account.id, eventId: id };

    const results = await Promise.all([deliverWebhook(deps, message), deliverWebhook(deps, message)]);
    expect(results.map((r) => r.outcome).sort()).toEqual(['retry', 'skipped']);
    expect(receiver.received).toHaveLength(2);
    expect(queue.sent.map((s) => s.delaySeconds)).toEqual([undefined, 30]);
    expect(await repository.get(account.id, id)).toMatchObject({ state: 'pending', attempts: 1 });
    await receiver.close();
  });

  it('does not follow redirects', async () => {
    const receiver = new Receiver(account.webhookSecret, [307, 307]);
    const port = await receiver.listen();
    const { deps, queue } = setup({ maxAttempts: 2 });
    await emit(deps, `http://127.0.0.1:${port}/hook`);
    expect((await drain(deps, queue)).map((r) => r.lastStatus)).toEqual([307, 307]);
    expect(receiver.received).toHaveLength(2);
    await receiver.close();
  });

  it('posts to the address the guard checked, never asking DNS again (a rebinding name gets nowhere)', async () => {
    const receiver = new Receiver(account.webhookSecret);
    const port = await receiver.listen();
    const { deps, queue } = setup();
    // hook.test exists only in this resolver: the sender must connect where the guard's lookup said.
    const asked: string[] = [];
    deps.resolve = async (host) => {
      asked.push(host);
      return asked.length === 1 ? ['127.0.0.1'] : ['127.0.0.9'];
    };
    const id = await emit(deps, `http://hook.test.:${port}/hook`);
    expect((await drain(deps, queue)).map((r) => r.outcome)).toEqual(['delivered']);
    expect(asked).toEqual(['hook.test']);
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([id]);
    expect(receiver.received[0]?.headers.host).toBe(`hook.test.:${port}`);
    await receiver.close();
  });

  it('makes an event to a private address dead at once, without a request, when those are refused', async () => {
    const receiver = new Receiver(account.webhookSecret);
    const port = await receiver.listen();
    const { deps, queue } = setup({ allowPrivate: false });
    const id = await emit(deps, `http://127.0.0.1:${port}/hook`);

    const results = await drain(deps, queue);
    expect(results).toEqual([{ outcome: 'dead', attempts: 0, lastStatus: null, lastError: 'url: is a private address (127.0.0.1)' }]);
    expect(queue.sent).toHaveLength(1);
    expect(receiver.received).toEqual([]);
    const stored = await repository.get(account.id, id);
    expect(stored).toMatchObject({ state: 'dead', lastError: 'url: is a private address (127.0.0.1)' });
    await receiver.close();
  });
});

describe('WebhookRepository', () => {
  it('stores outbox items with their kind, account and a 30-day expiry', async () => {
    const { deps } = setup();
    const id = await emit(deps, 'https://hooks.example/in');
    const item = await container.table.get(keys.webhookDelivery(account.id, id));
    expect(item).toMatchObject({ kind: 'webhookDelivery', accountId: account.id, eventId: id, state: 'pending' });
    const created = Date.parse(String(item?.createdAt)) / 1000;
    expect(Number(item?.expiresAt)).toBe(Math.floor(created) + 30 * 24 * 60 * 60);
  });

  it('refuses an update whose expected attempts are stale, and a second create', async () => {
    const { deps } = setup();
    const id = await emit(deps, 'https://hooks.example/in');
    expect(await repository.update(account.id, id, { attempts: 1 }, 0)).toMatchObject({ attempts: 1 });
    await expect(repository.update(account.id, id, { attempts: 1 }, 0)).rejects.toBeInstanceOf(ConflictError);
    const stored = await repository.get(account.id, id);
    await expect(repository.create(stored as NonNullable<typeof stored>)).rejects.toBeInstanceOf(ConflictError);
    expect(await repository.update(account.id, 'missing', { attempts: 1 }, 0)).toBeUndefined();
  });
});
