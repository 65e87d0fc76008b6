/** The webhook outbox in memory (the semantics of webhook-repository.ts). */
import { ConflictError } from '../../core/errors';
import type { WebhookDelivery } from '../../core/webhooks/events';
import type { WebhookStore } from '../../core/webhooks/ports';
import { AccountRecords, definedChanges } from './records';

export class MemoryWebhookStore implements WebhookStore {
  private readonly deliveries = new AccountRecords<WebhookDelivery>();

  async create(delivery: WebhookDelivery): Promise<void> {
    this.deliveries.create(delivery.accountId, delivery.eventId, delivery);
  }

  async get(accountId: string, eventId: string): Promise<WebhookDelivery | undefined> {
    return this.deliveries.get(accountId, eventId);
  }

  async update(
    accountId: string,
    eventId: string,
    changes: Partial<Omit<WebhookDelivery, 'accountId' | 'eventId'>>,
    expectedAttempts?: number,
  ): Promise<WebhookDelivery | undefined> {
    const current = this.deliveries.get(accountId, eventId);
    if (!current) return undefined;
    if (expectedAttempts !== undefined && current.attempts !== expectedAttempts) {
      throw new ConflictError(`webhook event ${eventId}: attempts is no longer ${expectedAttempts}`);
    }
    return this.deliveries.update(accountId, eventId, (delivery) => ({ ...delivery, ...definedChanges(changes) }));
  }
}
