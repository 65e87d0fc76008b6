/**
 * Webhook events and their outbox records. An event is stored once, with its id, and the same stored
 * event is sent on every try, so receivers can deduplicate by `id` (also sent as `webhook-id`).
 */

/** The event types a memory's `webhookUrl` receives. */
export const WEBHOOK_EVENT_TYPES = [
  'memory.ingestion.started',
  'memory.ingestion.completed',
  'memory.ingestion.failed',
  'file.ready',
  'file.failed',
  'file.import.completed',
  'file.import.failed',
] as const;

/** One of WEBHOOK_EVENT_TYPES. */
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The JSON body of a webhook POST. */
export interface WebhookEvent {
  id: string;
  type: WebhookEventType;
  /** ISO 8601, when the event happened (not when it was sent). */
  createdAt: string;
  data: Record<string, unknown>;
}

/** Where an outbox record is: waiting for a (further) try, received by the receiver, or given up on. */
type WebhookDeliveryState = 'pending' | 'delivered' | 'dead';

/** The durable outbox record of one event to one receiver. */
export interface WebhookDelivery {
  eventId: string;
  accountId: string;
  url: string;
  event: WebhookEvent;
  /** Tries made so far (requests sent, or attempted and failed before an answer). */
  attempts: number;
  state: WebhookDeliveryState;
  lastError: string | null;
  /** HTTP status of the last answer, null when there was none. */
  lastStatus: number | null;
  /** When the next try is due, while pending after a failure. */
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
  deliveredAt: string | null;
}
