import { z } from 'zod';
import { ConflictError } from '../../../core/errors';
import { WEBHOOK_EVENT_TYPES, type WebhookDelivery } from '../../../core/webhooks/events';
import type { WebhookStore } from '../../../core/webhooks/ports';
import { itemOf, itemSchema, nullable, storedTimestamp } from '../item-schema';
import { keys } from '../keys';
import type { Table } from '../table';

/** How long an outbox record is kept after it was created (DynamoDB TTL on `expiresAt`). */
const WEBHOOK_RETENTION_SECONDS = 30 * 24 * 60 * 60;

/** The webhook outbox on the single table: one item per event, expiring 30 days after creation. */
/** An outbox record as stored (with `expiresAt`, its TTL). */
const deliveryItem = itemSchema<WebhookDelivery>(
  'webhookDelivery',
  z.object({
    eventId: z.string(),
    accountId: z.string(),
    url: z.string(),
    event: z.object({
      id: z.string(),
      type: z.enum(WEBHOOK_EVENT_TYPES),
      createdAt: storedTimestamp,
      data: z.record(z.string(), z.unknown()),
    }),
    attempts: z.number().default(0),
    state: z.enum(['pending', 'delivered', 'dead']),
    lastError: nullable(z.string()),
    lastStatus: nullable(z.number()),
    nextAttemptAt: nullable(z.string()),
    createdAt: storedTimestamp,
    updatedAt: storedTimestamp,
    deliveredAt: nullable(z.string()),
  }),
);

export class WebhookRepository implements WebhookStore {
  constructor(private readonly table: Table) {}

  /** Throws ConflictError when the event is already in the outbox. */
  async create(delivery: WebhookDelivery): Promise<void> {
    await this.table.create({
      ...itemOf(deliveryItem, keys.webhookDelivery(delivery.accountId, delivery.eventId), delivery),
      expiresAt: Math.floor(Date.parse(delivery.createdAt) / 1000) + WEBHOOK_RETENTION_SECONDS,
    });
  }

  async get(accountId: string, eventId: string): Promise<WebhookDelivery | undefined> {
    const item = await this.table.get(keys.webhookDelivery(accountId, eventId));
    return item ? deliveryItem.read(item) : undefined;
  }

  /** With `expectedAttempts`, a ConflictError says another try was counted first. */
  async update(
    accountId: string,
    eventId: string,
    changes: Partial<Omit<WebhookDelivery, 'accountId' | 'eventId'>>,
    expectedAttempts?: number,
  ): Promise<WebhookDelivery | undefined> {
    const condition =
      expectedAttempts === undefined
        ? undefined
        : { expression: '#wa = :wa', names: { '#wa': 'attempts' }, values: { ':wa': expectedAttempts } };
    const set = Object.fromEntries(Object.entries(deliveryItem.changes(changes)).filter(([, value]) => value !== undefined));
    const item = await this.table.update(keys.webhookDelivery(accountId, eventId), set, condition);
    if (item) return deliveryItem.read(item);
    // dynalite does not return the item of a failed condition, so Table cannot tell "lost" from "missing".
    if (condition && (await this.get(accountId, eventId))) {
      throw new ConflictError(`webhook event ${eventId}: attempts is no longer ${expectedAttempts}`);
    }
    return undefined;
  }
}
