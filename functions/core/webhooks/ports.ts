/** Ports of webhook delivery: the durable outbox and the HTTP client that calls receivers. */
import type { GuardedAddress } from '../net/address-guard';
import type { WebhookDelivery } from './events';

/** The outbox of webhook events, one record per event. */
export interface WebhookStore {
  /** Stores a new record; throws ConflictError when one with the same event id exists. */
  create(delivery: WebhookDelivery): Promise<void>;
  get(accountId: string, eventId: string): Promise<WebhookDelivery | undefined>;
  /**
   * Applies changes and returns the record after, or undefined when it does not exist. With
   * `expectedAttempts`, only if `attempts` still has that value (else ConflictError), so two concurrent
   * tries of one event cannot both be counted.
   */
  update(
    accountId: string,
    eventId: string,
    changes: Partial<Omit<WebhookDelivery, 'accountId' | 'eventId'>>,
    expectedAttempts?: number,
  ): Promise<WebhookDelivery | undefined>;
}

/** Sends one webhook request. */
export interface WebhookSender {
  /**
   * POSTs `body` to one of the target's checked addresses (never resolving its name again) and answers the
   * status, without following redirects. Throws when no answer arrives (connection refused or reset, TLS
   * failure, timeout after `timeoutMs`).
   */
  post(target: GuardedAddress, headers: Record<string, string>, body: string, timeoutMs: number): Promise<{ status: number }>;
}
