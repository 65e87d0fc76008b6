/**
 * The work queue in memory, with the SQS standard-queue semantics of the local file queue
 * (queue/local-queue.ts) without its files: at-least-once delivery, visibility timeouts, a fresh receipt
 * handle per receive, delays, and dead-lettering after maxReceiveCount receives. For tests that run the
 * worker themselves; nothing survives the process.
 */
import { randomUUID } from 'node:crypto';
import type { QueuePort, RedeliveryPort } from '../../core/ports';
import type { QueueDepth, ReceivedMessage } from '../queue/local-queue';

const MAX_DELAY_SECONDS = 900;
const MAX_VISIBILITY_SECONDS = 43_200;

interface QueuedMessage extends ReceivedMessage {
  visibleAt: number;
}

export class MemoryQueue implements QueuePort, RedeliveryPort {
  private readonly live: QueuedMessage[] = [];
  private readonly dead: QueuedMessage[] = [];
  private readonly maxReceiveCount: number;
  private readonly visibilityTimeoutSeconds: number;

  constructor(options: { visibilityTimeoutSeconds?: number; maxReceiveCount?: number } = {}) {
    this.visibilityTimeoutSeconds = checkSeconds(
      'visibilityTimeoutSeconds',
      options.visibilityTimeoutSeconds ?? 60,
      MAX_VISIBILITY_SECONDS,
    );
    this.maxReceiveCount = options.maxReceiveCount ?? 5;
    if (!(this.maxReceiveCount >= 1 && Number.isInteger(this.maxReceiveCount)))
      throw new RangeError('maxReceiveCount must be a positive integer');
  }

  async send(body: unknown, options?: { delaySeconds?: number; groupId?: string }): Promise<void> {
    const encoded = JSON.stringify(body);
    if (encoded === undefined) throw new TypeError('message body is not JSON-serializable');
    const delay = checkSeconds('delaySeconds', options?.delaySeconds ?? 0, MAX_DELAY_SECONDS);
    const now = Date.now();
    this.live.push({
      ...{ messageId: randomUUID(), body: encoded, sentAt: now, visibleAt: now + delay * 1000 },
      ...{ receiveCount: 0, receiptHandle: '', firstReceivedAt: 0 },
      ...(options?.groupId === undefined ? {} : { groupId: options.groupId }),
    });
  }

  /** Up to `max` visible messages, oldest first, each hidden for the visibility timeout. */
  async receive(max: number, visibilityTimeoutSeconds?: number): Promise<ReceivedMessage[]> {
    if (!Number.isInteger(max) || max < 1) throw new RangeError('max must be a positive integer');
    const timeout = checkSeconds(
      'visibilityTimeoutSeconds',
      visibilityTimeoutSeconds ?? this.visibilityTimeoutSeconds,
      MAX_VISIBILITY_SECONDS,
    );
    const now = Date.now();
    this.sweep(now);
    return this.live
      .filter((message) => message.visibleAt <= now)
      .slice(0, max)
      .map((message) => {
        message.receiveCount += 1;
        message.visibleAt = now + timeout * 1000;
        message.receiptHandle = `${message.messageId}:${randomUUID()}`;
        message.firstReceivedAt ||= now;
        return receivedOf(message);
      });
  }

  /** Deletes the message if `receiptHandle` is its current one; false for a stale or unknown handle. */
  async delete(receiptHandle: string): Promise<boolean> {
    const index = this.live.findIndex((message) => message.receiptHandle === receiptHandle && receiptHandle !== '');
    if (index < 0) return false;
    this.live.splice(index, 1);
    return true;
  }

  /** Makes the message visible again `seconds` from now; false for a stale or unknown handle. */
  async changeVisibility(receiptHandle: string, seconds: number): Promise<boolean> {
    const timeout = checkSeconds('seconds', seconds, MAX_VISIBILITY_SECONDS);
    const message = this.live.find((candidate) => candidate.receiptHandle === receiptHandle && receiptHandle !== '');
    if (!message) return false;
    message.visibleAt = Date.now() + timeout * 1000;
    return true;
  }

  async retryIn(receiptHandle: string, seconds: number): Promise<void> {
    await this.changeVisibility(receiptHandle, seconds);
  }

  /** Messages given up on after their last receive, oldest first. */
  async deadLetters(): Promise<ReceivedMessage[]> {
    this.sweep(Date.now());
    return this.dead.map(receivedOf);
  }

  async depth(): Promise<QueueDepth> {
    const now = Date.now();
    this.sweep(now);
    const depth: QueueDepth = { visible: 0, inFlight: 0, delayed: 0, dead: this.dead.length };
    for (const message of this.live) {
      if (message.visibleAt <= now) depth.visible++;
      else if (message.receiveCount > 0) depth.inFlight++;
      else depth.delayed++;
    }
    return depth;
  }

  /** Moves visible messages that have used up their receives to the dead letters. */
  private sweep(now: number): void {
    const exhausted = this.live.filter((message) => message.visibleAt <= now && message.receiveCount >= this.maxReceiveCount);
    for (const message of exhausted) this.live.splice(this.live.indexOf(message), 1);
    this.dead.push(...exhausted);
  }
}

function receivedOf({ visibleAt: _visibleAt, ...message }: QueuedMessage): ReceivedMessage {
  return { ...message };
}

function checkSeconds(name: string, value: number, max: number): number {
  if (!Number.isFinite(value) || value < 0 || value > max) throw new RangeError(`${name} must be between 0 and ${max} seconds`);
  return value;
}
