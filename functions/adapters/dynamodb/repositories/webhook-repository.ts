import { ConflictError } from '../../../core/errors';
import type { WebhookDelivery, WebhookEvent } from '../../../core/webhooks/events';
import type { WebhookStore } from '../../../core/webhooks/ports';
import { keys } from '../keys';
import type { Item, Table } from '../table';
import { nullableString } from './fields';

/** How long an outbox record is kept after it was created (DynamoDB TTL on `expiresAt`). */
const WEBHOOK_RETENTION_SECONDS = 30 * 24 * 60 * 60;

/** The webhook outbox on the single table: one item per event, expiring 30 days after creation. */
export class WebhookRepository implements WebhookStore {
  constructor(private readonly table: Table) {}

  /** Throws ConflictError when the event is already in the outbox. */
  async create(delivery: WebhookDelivery): Promise<void> {
    await this.table.create({
      ...keys.webhookDelivery(delivery.accountId, delivery.eventId),
      kind: 'webhookDelivery',
      ...delivery,
      expiresAt: Math.floor(Date.parse(delivery.createdAt) / 1000) + WEBHOOK_RETENTION_SECONDS,
    });
  }

  async get(accountId: string, eventId: string): Promise<WebhookDelivery | undefined> {
    const item = await this.table.get(keys.webhookDelivery(accountId, eventId));
    return item ? toDelivery(item) : undefined;
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
    const set = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    const item = await this.table.update(keys.webhookDelivery(accountId, eventId), set, condition);
    if (item) return toDelivery(item);
    // dynalite does not return the item of a failed condition, so Table cannot tell "lost" from "missing".
    if (condition && (await this.get(accountId, eventId))) {
      throw new ConflictError(`webhook event ${eventId}: attempts is no longer ${expectedAttempts}`);
    }
    return undefined;
  }
}

function toDelivery(item: Item): WebhookDelivery {
  return {
    eventId: String(item.eventId),
    accountId: String(item.accountId),
    url: String(item.url),
    event: item.event as WebhookEvent,
    attempts: Number(item.attempts ?? 0),
    state: item.state as WebhookDelivery['state'],
    lastError: nullableString(item.lastError),
    lastStatus: item.lastStatus === undefined || item.lastStatus === null ? null : Number(item.lastStatus),
    nextAttemptAt: nullableString(item.nextAttemptAt),
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
    deliveredAt: nullableString(item.deliveredAt),
  };
}
