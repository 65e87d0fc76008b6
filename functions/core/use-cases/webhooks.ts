/**
 * Webhooks through a durable outbox: an event is stored first, then a `webhook.deliver` message asks the
 * worker to send it. Each try signs the stored event afresh (Standard Webhooks) and POSTs it; failures are
 * retried with doubling delays through the queue until `maxAttempts`, after which the event is dead.
 * Delivery is at least once: receivers deduplicate on the event id, the same on every try.
 */
import { BadRequestError, ConflictError } from '../errors';
import { type GuardedAddress, guardAddress, UnsafeAddressError } from '../net/address-guard';
import type { AccountStore, Clock, IdGenerator, MemoryStore, QueuePort } from '../ports';
import type { WebhookDelivery } from '../webhooks/events';
import type { WebhookSender, WebhookStore } from '../webhooks/ports';
import { deliverMessage, type WebhookDeliverMessage } from '../webhooks/outbox';
import { signWebhook } from '../webhooks/signing';
import { emitMetric, type MetricName } from '../metrics';

/** The longest delay SQS accepts on a message. */
export const MAX_DELAY_SECONDS = 900;
/** Sent as `user-agent` with every webhook request. */
const WEBHOOK_USER_AGENT = 'kmem-webhooks/1';
const MAX_ERROR_LENGTH = 500;

/** What the webhook use cases need; the container satisfies it. */
export interface WebhookDeps {
  webhooks: WebhookStore;
  accounts: AccountStore;
  /** Where the account sees how its memory's deliveries go. */
  memories: Pick<MemoryStore, 'recordWebhookDelivery'>;
  queue: QueuePort;
  sender: WebhookSender;
  /** Every address of a host name (see AddressGuardOptions.resolve). */
  resolve: (host: string) => Promise<string[]>;
  clock: Clock;
  ids: IdGenerator;
  config: {
    allowPrivateUrls: boolean;
    webhooks: { maxAttempts: number; backoffSeconds: number; timeoutMs: number };
  };
}

/** What one delivery did, for the worker's logs and metrics. */
export interface DeliveryResult {
  /** delivered: the receiver took it; retry: another try is queued; dead: given up; skipped: nothing to do. */
  outcome: 'delivered' | 'retry' | 'dead' | 'skipped';
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  /** Seconds until the queued retry, when the outcome is retry. */
  delaySeconds?: number;
}

/** Seconds to wait before the next try after `attempts` failed ones: backoff doubling, at most 900. */
export function backoffDelaySeconds(attempts: number, backoffSeconds: number): number {
  return Math.min(MAX_DELAY_SECONDS, backoffSeconds * 2 ** Math.max(0, attempts - 1));
}

/**
 * Refuses a webhook address no delivery could use (credentials, not http(s), or, unless private addresses
 * are allowed, one that is or resolves to a loopback, private or metadata address): a 400 naming
 * `webhookUrl`. A resolver that fails now lets the address through: every delivery checks it again.
 */
export async function checkWebhookUrl(
  deps: { resolve: WebhookDeps['resolve']; config: { allowPrivateUrls: boolean } },
  url: string,
): Promise<void> {
  try {
    await guardAddress(url, { allowPrivate: deps.config.allowPrivateUrls, resolve: deps.resolve, field: 'webhookUrl' });
  } catch (error) {
    if (error instanceof BadRequestError) throw error;
  }
}

/**
 * Makes one try at a pending event. A delivered or dead (or missing) event is left alone; a refused
 * address makes it dead at once; any other failure counts a try and queues the next, or makes it dead
 * after `maxAttempts`. Throws only when the store or the queue fails (the worker then retries the message).
 */
export async function deliverWebhook(deps: WebhookDeps, message: WebhookDeliverMessage): Promise<DeliveryResult> {
  const delivery = await deps.webhooks.get(message.accountId, message.eventId);
  if (!delivery || delivery.state !== 'pending') return skipped(delivery);
  const tried = await tryOnce(deps, delivery);
  const outcome = await settle(deps, delivery, tried);
  await showOnMemory(deps, delivery, outcome);
  const counted = OUTCOME_METRIC[outcome.outcome];
  if (counted)
    emitMetric(counted, 1, { properties: { accountId: delivery.accountId, eventId: delivery.eventId, attempts: outcome.attempts } });
  return outcome;
}

const OUTCOME_METRIC: Record<DeliveryResult['outcome'], MetricName | undefined> = {
  delivered: 'WebhookDeliveries',
  retry: 'WebhookRetries',
  dead: 'WebhookDead',
  skipped: undefined,
};

const SHOWN_OUTCOME = { delivered: 'delivered', retry: 'retrying', dead: 'dead' } as const;

/** Records a counted try on the event's memory (every event names its memory in `data.memoryID`). */
async function showOnMemory(deps: WebhookDeps, delivery: WebhookDelivery, result: DeliveryResult): Promise<void> {
  const memoryId = delivery.event.data.memoryID;
  if (result.outcome === 'skipped' || typeof memoryId !== 'string') return;
  await deps.memories.recordWebhookDelivery(delivery.accountId, memoryId, {
    eventId: delivery.eventId,
    eventType: delivery.event.type,
    outcome: SHOWN_OUTCOME[result.outcome],
    attempts: result.attempts,
    lastStatus: result.lastStatus,
    lastError: result.lastError,
    at: deps.clock.now().toISOString(),
  });
}

type Try =
  | { kind: 'delivered'; status: number }
  | { kind: 'failed'; status: number | null; error: string }
  | { kind: 'refused'; error: string };

/** Guards the address, signs the stored event and POSTs it; throws only when the account store fails. */
async function tryOnce(deps: WebhookDeps, delivery: WebhookDelivery): Promise<Try> {
  let target: GuardedAddress;
  try {
    target = await guardAddress(delivery.url, { allowPrivate: deps.config.allowPrivateUrls, resolve: deps.resolve });
  } catch (error) {
    if (error instanceof UnsafeAddressError) return { kind: 'refused', error: error.message };
    return { kind: 'failed', status: null, error: errorText(error) };
  }
  const account = await deps.accounts.get(delivery.accountId);
  if (!account) return { kind: 'refused', error: 'the account no longer exists' };
  const body = JSON.stringify(delivery.event);
  const headers = signedHeaders(account.webhookSecret, delivery.eventId, deps.clock.now(), body);
  try {
    const { status } = await deps.sender.post(target, headers, body, deps.config.webhooks.timeoutMs);
    if (status >= 200 && status < 300) return { kind: 'delivered', status };
    return { kind: 'failed', status, error: `receiver answered HTTP ${status}` };
  } catch (error) {
    return { kind: 'failed', status: null, error: errorText(error) };
  }
}

/** The headers of one try: content type, user agent and the Standard Webhooks trio. */
function signedHeaders(secret: string, eventId: string, now: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook({ secret, id: eventId, timestamp, payload: body }),
  };
}

/** Records the try, counted only if no concurrent try was counted first, and queues the next one. */
async function settle(deps: WebhookDeps, delivery: WebhookDelivery, tried: Try): Promise<DeliveryResult> {
  const now = deps.clock.now();
  const at = now.toISOString();
  if (tried.kind === 'delivered') {
    const attempts = delivery.attempts + 1;
    const changes = { state: 'delivered' as const, attempts, lastStatus: tried.status, lastError: null };
    const done = { ...changes, nextAttemptAt: null, deliveredAt: at, updatedAt: at };
    return record(deps, delivery, done, result('delivered', attempts, tried.status, null));
  }
  if (tried.kind === 'refused') {
    const changes = { state: 'dead' as const, lastError: tried.error, nextAttemptAt: null, updatedAt: at };
    return record(deps, delivery, changes, result('dead', delivery.attempts, delivery.lastStatus, tried.error));
  }
  const attempts = delivery.attempts + 1;
  const error = tried.error.slice(0, MAX_ERROR_LENGTH);
  const failed = { attempts, lastStatus: tried.status, lastError: error, updatedAt: at };
  if (attempts >= deps.config.webhooks.maxAttempts) {
    const dead = { ...failed, state: 'dead' as const, nextAttemptAt: null };
    return record(deps, delivery, dead, result('dead', attempts, tried.status, error));
  }
  const delaySeconds = backoffDelaySeconds(attempts, deps.config.webhooks.backoffSeconds);
  const nextAttemptAt = new Date(now.getTime() + delaySeconds * 1000).toISOString();
  const retry = { ...result('retry', attempts, tried.status, error), delaySeconds };
  const outcome = await record(deps, delivery, { ...failed, nextAttemptAt }, retry);
  if (outcome.outcome === 'retry') {
    await deps.queue.send(deliverMessage(delivery.accountId, delivery.eventId), { delaySeconds });
  }
  return outcome;
}

/** Writes the changes if `attempts` is unchanged; a lost race (or a vanished record) is a skip. */
async function record(
  deps: WebhookDeps,
  delivery: WebhookDelivery,
  changes: Partial<WebhookDelivery>,
  outcome: DeliveryResult,
): Promise<DeliveryResult> {
  try {
    const after = await deps.webhooks.update(delivery.accountId, delivery.eventId, changes, delivery.attempts);
    return after ? outcome : skipped(undefined);
  } catch (error) {
    if (error instanceof ConflictError) return skipped(await deps.webhooks.get(delivery.accountId, delivery.eventId));
    throw error;
  }
}

function result(outcome: DeliveryResult['outcome'], attempts: number, lastStatus: number | null, lastError: string | null): DeliveryResult {
  return { outcome, attempts, lastStatus, lastError };
}

function skipped(delivery: WebhookDelivery | undefined): DeliveryResult {
  return result('skipped', delivery?.attempts ?? 0, delivery?.lastStatus ?? null, delivery?.lastError ?? null);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
