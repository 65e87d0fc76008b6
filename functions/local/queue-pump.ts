/**
 * Feeds a LocalQueue to an SQS-style Lambda handler, as the SQS event source mapping does on AWS:
 * receive a batch, invoke with an SQSEvent, delete what succeeded (ReportBatchItemFailures semantics).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { LocalQueue, ReceivedMessage } from '../adapters/queue/local-queue';
import { lambdaContext } from './lambda-context';

/** An SQS-triggered Lambda handler. */
export type SqsLambdaHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

/** Options for a QueuePump. */
export interface QueuePumpOptions {
  queue: LocalQueue;
  handler: SqsLambdaHandler;
  /** Records per invocation (10, the SQS event source default). */
  batchSize?: number;
  /** Idle sleep between empty receives (100 ms); `notify()` or a send cuts it short. */
  pollIntervalMs?: number;
  /** Visibility timeout for received batches; the queue's default when unset. */
  visibilityTimeoutSeconds?: number;
  queueArn?: string;
  /** Name used in the Lambda context (`kmem-local-<name>`). */
  functionName?: string;
  /** Where failures are reported (console.error). */
  log?: (line: string) => void;
}

const DEFAULT_ARN = 'arn:aws:sqs:local:000000000000:kmem-local-ingest';
const ERROR_BACKOFF_MS = 1_000;

/** Polls a LocalQueue and invokes an SQS handler with each batch until stopped. */
export class QueuePump {
  private readonly queue: LocalQueue;
  private readonly handler: SqsLambdaHandler;
  private readonly batchSize: number;
  private readonly pollIntervalMs: number;
  private readonly visibilityTimeoutSeconds: number | undefined;
  private readonly queueArn: string;
  private readonly functionName: string;
  private readonly log: (line: string) => void;
  private running = false;
  private busy = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private pending = false;
  private unsubscribe: (() => void) | undefined;

  constructor(options: QueuePumpOptions) {
    this.queue = options.queue;
    this.handler = options.handler;
    this.batchSize = options.batchSize ?? 10;
    if (!(this.batchSize >= 1 && Number.isInteger(this.batchSize))) {
      throw new RangeError('batchSize must be a positive integer');
    }
    this.pollIntervalMs = options.pollIntervalMs ?? 100;
    this.visibilityTimeoutSeconds = options.visibilityTimeoutSeconds;
    this.queueArn = options.queueArn ?? DEFAULT_ARN;
    this.functionName = options.functionName ?? 'worker';
    this.log = options.log ?? ((line) => console.error(line));
  }

  /** Starts polling; calling it while running does nothing. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.queue.onSend(() => this.notify());
    this.loop = this.run();
  }

  /** Stops polling and waits for the batch in flight, if any, to finish. */
  async stop(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.notify();
    await this.loop;
    this.loop = undefined;
  }

  /** Wakes an idle pump so it receives at once instead of at the end of its sleep. */
  notify(): void {
    this.pending = true;
    this.wake?.();
  }

  /** Resolves once the queue holds no visible, in-flight or delayed messages; rejects after `timeoutMs`. */
  async drain(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const depth = await this.queue.depth();
      if (!this.busy && depth.visible + depth.inFlight + depth.delayed === 0) return;
      if (Date.now() >= deadline) {
        throw new Error(`queue did not drain within ${timeoutMs} ms: ${JSON.stringify(depth)}`);
      }
      await delay(Math.min(this.pollIntervalMs, 25));
    }
  }

  private async run(): Promise<void> {
    while (this.running) {
      let worked = false;
      try {
        worked = await this.pollOnce();
      } catch (error) {
        this.log(`queue pump: receive/delete failed, retrying in ${ERROR_BACKOFF_MS} ms: ${describe(error)}`);
        await this.idle(ERROR_BACKOFF_MS);
        continue;
      }
      if (!worked) await this.idle(this.pollIntervalMs);
    }
  }

  /** Receives and processes one batch; returns false when there was nothing to receive. */
  private async pollOnce(): Promise<boolean> {
    this.pending = false;
    const messages = await this.queue.receive(this.batchSize, this.visibilityTimeoutSeconds);
    if (messages.length === 0) return false;
    this.busy = true;
    try {
      await this.process(messages);
    } finally {
      this.busy = false;
    }
    return true;
  }

  private async process(messages: ReceivedMessage[]): Promise<void> {
    const event: SQSEvent = { Records: messages.map((m) => this.record(m)) };
    const requestId = randomUUID();
    const timeoutMs = (this.visibilityTimeoutSeconds ?? this.queue.visibilityTimeoutSeconds) * 1000;
    let response: SQSBatchResponse | void;
    try {
      response = await this.handler(event, lambdaContext(this.functionName, requestId, timeoutMs));
    } catch (error) {
      this.log(`queue pump: handler failed for ${messages.length} message(s), all will be retried: ${describe(error)}`);
      return;
    }
    const keep = failedIds(response, messages);
    if (keep.size > 0) this.log(`queue pump: ${keep.size} of ${messages.length} message(s) reported as failed`);
    for (const message of messages) {
      if (!keep.has(message.messageId)) await this.queue.delete(message.receiptHandle);
    }
  }

  private record(m: ReceivedMessage): SQSRecord {
    return {
      messageId: m.messageId,
      receiptHandle: m.receiptHandle,
      body: m.body,
      attributes: {
        ApproximateReceiveCount: String(m.receiveCount),
        SentTimestamp: String(m.sentAt),
        SenderId: 'LOCAL',
        ApproximateFirstReceiveTimestamp: String(m.firstReceivedAt),
        ...(m.groupId === undefined ? {} : { MessageGroupId: m.groupId }),
      },
      messageAttributes: {},
      md5OfBody: createHash('md5').update(m.body, 'utf8').digest('hex'),
      eventSource: 'aws:sqs',
      eventSourceARN: this.queueArn,
      awsRegion: 'local',
    };
  }

  /** Sleeps up to `ms`, returning early on notify() or stop(). */
  private idle(ms: number): Promise<void> {
    if (this.pending || !this.running) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      const wake = (): void => done();
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = wake;
    }).finally(() => {
      this.wake = undefined;
    });
  }
}

/**
 * The ids to keep for redelivery. As with ReportBatchItemFailures on AWS, a failure entry with an
 * empty or unknown itemIdentifier, or a malformed response, fails the whole batch.
 */
function failedIds(response: SQSBatchResponse | void, messages: ReceivedMessage[]): Set<string> {
  const all = new Set(messages.map((m) => m.messageId));
  if (response === undefined || response === null) return new Set();
  const failures: unknown = (response as { batchItemFailures?: unknown }).batchItemFailures;
  if (failures === undefined || failures === null) return new Set();
  if (!Array.isArray(failures)) return all;
  const ids = new Set<string>();
  for (const failure of failures as unknown[]) {
    const id = (failure as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    if (typeof id !== 'string' || !all.has(id)) return all;
    ids.add(id);
  }
  return ids;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
