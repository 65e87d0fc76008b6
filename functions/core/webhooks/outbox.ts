/**
 * The webhook outbox, below both the webhook use cases and the worker pipeline: an event is stored first
 * (pending), then a `webhook.deliver` message asks the worker to send it (use-cases/webhooks.ts delivers).
 */
import { ConflictError } from '../errors';
import type { Clock, IdGenerator, QueuePort } from '../ports';
import type { WorkMessage } from '../work';
import type { WebhookDelivery, WebhookEvent, WebhookEventType } from './events';
import type { WebhookStore } from './ports';

/** What emitting needs: the outbox and the queue. */
export interface EmitDeps {
  webhooks: WebhookStore;
  queue: QueuePort;
  clock: Clock;
  ids: IdGenerator;
}

/** An event to send to `url` (nothing happens when there is no url). */
export interface EmitRequest {
  accountId: string;
  url: string | null | undefined;
  type: WebhookEventType;
  data: Record<string, unknown>;
  /**
   * A stable id for an event a redelivered message may emit again (say `${jobId}.completed`): a second
   * emit with the same id stores and sends nothing new. Defaults to a fresh uuid.
   */
  eventId?: string;
}

/** The `webhook.deliver` work message. */
export type WebhookDeliverMessage = Extract<WorkMessage, { kind: 'webhook.deliver' }>;

/**
 * Stores the event in the outbox (pending) and queues its delivery; answers the event id, or undefined
 * when `url` is empty. Does not look at the receiver. Throws when the store or the queue fails.
 */
export async function emitWebhookEvent(deps: EmitDeps, request: EmitRequest): Promise<string | undefined> {
  if (!request.url) return undefined;
  const delivery = newDelivery(deps, { ...request, url: request.url });
  try {
    await deps.webhooks.create(delivery);
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    const existing = await deps.webhooks.get(request.accountId, delivery.eventId);
    // Emitted before: queue it again only if it may not have been queued (delivery is idempotent).
    if (existing?.state !== 'pending' || existing.attempts > 0) return delivery.eventId;
  }
  await deps.queue.send(deliverMessage(request.accountId, delivery.eventId));
  return delivery.eventId;
}

function newDelivery(deps: EmitDeps, request: EmitRequest & { url: string }): WebhookDelivery {
  const at = deps.clock.now().toISOString();
  const eventId = request.eventId ?? deps.ids.uuid();
  // Through JSON, so the stored event is exactly what is sent (no undefined fields, dates as text).
  const data = JSON.parse(JSON.stringify(request.data)) as Record<string, unknown>;
  const event: WebhookEvent = { id: eventId, type: request.type, createdAt: at, data };
  return {
    eventId,
    accountId: request.accountId,
    url: request.url,
    event,
    attempts: 0,
    state: 'pending',
    lastError: null,
    lastStatus: null,
    nextAttemptAt: null,
    createdAt: at,
    updatedAt: at,
    deliveredAt: null,
  };
}

export function deliverMessage(accountId: string, eventId: string): WebhookDeliverMessage {
  return { kind: 'webhook.deliver', accountId, eventId };
}
