/** The delivery state machine with in-memory ports: backoff, outcomes, concurrency, idempotency. */
import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../../functions/core/errors';
import type { Account } from '../../../functions/core/model';
import type { AccountStore } from '../../../functions/core/ports';
import { backoffDelaySeconds, deliverWebhook, MAX_DELAY_SECONDS, type WebhookDeps } from '../../../functions/core/use-cases/webhooks';
import { emitWebhookEvent } from '../../../functions/core/webhooks/outbox';
import type { WebhookDelivery } from '../../../functions/core/webhooks/events';
import type { WebhookSender, WebhookStore } from '../../../functions/core/webhooks/ports';
import { verifyWebhook } from '../../../functions/core/webhooks/signing';

const SECRET = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
const ACCOUNT: Account = {
  id: 'acc-1',
  name: 'a',
  totalTokenLimit: 1,
  tokensRemaining: 1,
  webhookSecret: SECRET,
  createdAt: '2024-01-01T00:00:00.000Z',
};

class MemoryWebhookStore implements WebhookStore {
  readonly items = new Map<string, WebhookDelivery>();
  async create(d: WebhookDelivery): Promise<void> {
    if (this.items.has(d.eventId)) throw new ConflictError('exists');
    this.items.set(d.eventId, structuredClone(d));
  }
  async get(_accountId: string, eventId: string): Promise<WebhookDelivery | undefined> {
    const found = this.items.get(eventId);
    return found && structuredClone(found);
  }
  async update(_a: string, eventId: string, changes: Partial<WebhookDelivery>, expected?: number) {
    const found = this.items.get(eventId);
    if (!found) return undefined;
    if (expected !== undefined && found.attempts !== expected) throw new ConflictError('attempts moved');
    Object.assign(found, changes);
    return structuredClone(found);
  }
}

type Answer = number | Error;

function setup(answers: Answer[], options: { maxAttempts?: number; allowPrivate?: boolean } = {}) {
  const webhooks = new MemoryWebhookStore();
  const sent: { body: unknown; delaySeconds?: number }[] = [];
  const requests: { url: string; headers: Record<string, string>; body: string }[] = [];
  const sender: WebhookSender = {
    post: async (target, headers, body) => {
      requests.push({ url: target.url.href, headers, body });
      const answer = answers.shift() ?? 200;
      if (answer instanceof Error) throw answer;
      return { status: answer };
    },
  };
  const accounts = { get: async (id: string) => (id === ACCOUNT.id ? ACCOUNT : undefined) } as unknown as AccountStore;
  let n = 0;
  const deps: WebhookDeps = {
    webhooks,
    accounts,
    memories: { recordWebhookDelivery: async () => undefined },
    sender,
    queue: { send: async (body, opts) => void sent.push({ body, delaySeconds: opts?.delaySeconds }) },
    resolve: async (host) => (host === 'hooks.example' ? ['93.184.216.34'] : ['10.0.0.5']),
    clock: { now: () => new Date('2024-05-01T12:00:00.000Z') },
    ids: { uuid: () => `evt-${++n}` },
    config: {
      allowPrivateUrls: options.allowPrivate ?? false,
      webhooks: { maxAttempts: options.maxAttempts ?? 3, backoffSeconds: 30, timeoutMs: 1000 },
    },
  };
  return { deps, webhooks, sent, requests };
}

const emit = (deps: WebhookDeps, url = 'https://hooks.example/in') =>
  emitWebhookEvent(deps, { accountId: ACCOUNT.id, url, type: 'file.ready', data: { fileID: 'f1' } });
const message = (eventId: string) => ({ kind: 'webhook.deliver' as const, accountId: ACCOUNT.id, eventId });

describe('backoffDelaySeconds', () => {
  it('doubles from the base and stops at the SQS maximum of 900 seconds', () => {
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffDelaySeconds(a, 30))).toEqual([30, 60, 120, 240, 480, 900]);
    expect(backoffDelaySeconds(40, 30)).toBe(MAX_DELAY_SECONDS);
    expect(backoffDelaySeconds(1, 1)).toBe(1);
    expect(backoffDelaySeconds(3, 5)).toBe(20);
  });
});

describe('emitWebhookEvent', () => {
  it('stores a pending event and queues its delivery', async () => {
    const { deps, webhooks, sent } = setup([]);
    const id = await emit(deps);
    expect(id).toBe('evt-1');
    const stored = webhooks.items.get('evt-1');
    expect(stored).toMatchObject({ state: 'pending', attempts: 0, url: 'https://hooks.example/in' });
    expect(webhooks.items.get('evt-1')?.event).toEqual({
      id: 'evt-1',
      type: 'file.ready',
      createdAt: '2024-05-01T12:00:00.000Z',
      data: { fileID: 'f1' },
    });
    expect(sent).toEqual([{ body: message('evt-1'), delaySeconds: undefined }]);
  });

  it('does nothing without a url', async () => {
    const { deps, webhooks, sent } = setup([]);
    const request = { accountId: 'acc-1', url: null, type: 'file.ready' as const, data: {} };
    expect(await emitWebhookEvent(deps, request)).toBeUndefined();
    expect(await emitWebhookEvent(deps, { ...request, url: '' })).toBeUndefined();
    expect(webhooks.items.size).toBe(0);
    expect(sent).toEqual([]);
  });

  it('does not duplicate an event emitted again with the same id once it was tried', async () => {
    const { deps, webhooks, sent } = setup([]);
    const request = { accountId: ACCOUNT.id, url: 'https://hooks.example/in', type: 'file.ready' as const, data: {} };
    await emitWebhookEvent(deps, { ...request, eventId: 'job-1.ready' });
    await emitWebhookEvent(deps, { ...request, eventId: 'job-1.ready' });
    expect(sent).toHaveLength(2); // not yet tried: queued again, in case the first send was lost
    await deliverWebhook(deps, message('job-1.ready'));
    await emitWebhookEvent(deps, { ...request, eventId: 'job-1.ready' });
    expect(sent).toHaveLength(2);
    expect(webhooks.items.size).toBe(1);
  });
});

describe('deliverWebhook', () => {
  it('signs the stored event and marks it delivered on 2xx', async () => {
    const { deps, webhooks, requests } = setup([204]);
    const id = (await emit(deps)) as string;
    const result = await deliverWebhook(deps, message(id));
    expect(result).toEqual({ outcome: 'delivered', attempts: 1, lastStatus: 204, lastError: null });
    const [request] = requests;
    expect(request?.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'kmem-webhooks/1',
      'webhook-id': id,
    });
    const timestamp = Number(request?.headers['webhook-timestamp']);
    const signature = request?.headers['webhook-signature'] ?? '';
    const now = Date.parse('2024-05-01T12:00:00.000Z') / 1000;
    expect(verifyWebhook({ secret: SECRET, id, timestamp, payload: request?.body ?? '', signature, now })).toBe(true);
    expect(JSON.parse(request?.body ?? '')).toEqual(webhooks.items.get(id)?.event);
    const stored = webhooks.items.get(id);
    expect(stored).toMatchObject({ state: 'delivered', deliveredAt: '2024-05-01T12:00:00.000Z', lastStatus: 204 });
    expect(await deliverWebhook(deps, message(id))).toMatchObject({ outcome: 'skipped', attempts: 1 });
    expect(requests).toHaveLength(1);
  });

  it('retries failures with doubling delays and gives up after maxAttempts', async () => {
    const answers = [500, new Error('connection failed: ECONNREFUSED'), 302];
    const { deps, webhooks, sent } = setup(answers, { maxAttempts: 3 });
    const id = (await emit(deps)) as string;
    sent.length = 0;
    expect(await deliverWebhook(deps, message(id))).toMatchObject({ outcome: 'retry', attempts: 1, delaySeconds: 30 });
    expect(webhooks.items.get(id)).toMatchObject({ lastStatus: 500, nextAttemptAt: '2024-05-01T12:00:30.000Z' });
    expect(await deliverWebhook(deps, message(id))).toMatchObject({ outcome: 'retry', attempts: 2, delaySeconds: 60 });
    expect(webhooks.items.get(id)).toMatchObject({ lastStatus: null, lastError: 'connection failed: ECONNREFUSED' });
    expect(await deliverWebhook(deps, message(id))).toMatchObject({ outcome: 'dead', attempts: 3, lastStatus: 302 });
    const dead = { state: 'dead', nextAttemptAt: null, lastError: 'receiver answered HTTP 302' };
    expect(webhooks.items.get(id)).toMatchObject(dead);
    expect(sent.map((s) => s.delaySeconds)).toEqual([30, 60]);
    expect(await deliverWebhook(deps, message(id))).toMatchObject({ outcome: 'skipped' });
  });

  it('makes an event to a private address dead at once, without a request', async () => {
    const { deps, webhooks, requests, sent } = setup([]);
    const id = (await emit(deps, 'https://internal.example/')) as string;
    sent.length = 0;
    const result = await deliverWebhook(deps, message(id));
    const lastError = "url: host 'internal.example' does not resolve to a public address";
    expect(result).toEqual({ outcome: 'dead', attempts: 0, lastStatus: null, lastError });
    expect(webhooks.items.get(id)?.state).toBe('dead');
    expect(requests).toEqual([]);
    expect(sent).toEqual([]);
  });

  it('counts a DNS failure as a failed try (it may pass later)', async () => {
    const { deps, sent } = setup([]);
    deps.resolve = async () => {
      throw new Error('getaddrinfo EAI_AGAIN hooks.example');
    };
    const id = (await emit(deps)) as string;
    sent.length = 0;
    expect(await deliverWebhook(deps, message(id))).toMatchObject({ outcome: 'retry', attempts: 1, delaySeconds: 30 });
    expect(sent).toHaveLength(1);
  });

  it('counts only one of two concurrent tries and queues one retry', async () => {
    const { deps, webhooks, sent } = setup([500, 500]);
    const id = (await emit(deps)) as string;
    sent.length = 0;
    const results = await Promise.all([deliverWebhook(deps, message(id)), deliverWebhook(deps, message(id))]);
    expect(results.map((r) => r.outcome).sort()).toEqual(['retry', 'skipped']);
    expect(webhooks.items.get(id)?.attempts).toBe(1);
    expect(sent).toHaveLength(1);
  });

  it('skips an event that is not in the outbox', async () => {
    const { deps, requests } = setup([]);
    const result = await deliverWebhook(deps, message('missing'));
    expect(result).toEqual({ outcome: 'skipped', attempts: 0, lastStatus: null, lastError: null });
    expect(requests).toEqual([]);
  });

  it('makes the event dead when its account is gone', async () => {
    const { deps, requests } = setup([]);
    const request = { accountId: 'gone', url: 'https://hooks.example/', type: 'file.failed' as const, data: {} };
    const id = (await emitWebhookEvent(deps, request)) as string;
    const result = await deliverWebhook(deps, { kind: 'webhook.deliver', accountId: 'gone', eventId: id });
    expect(result).toMatchObject({ outcome: 'dead', lastError: 'the account no longer exists' });
    expect(requests).toEqual([]);
  });
});
