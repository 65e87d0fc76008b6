/**
 * A durable file-backed stand-in for SQS on the local runtime, behind the same QueuePort, with SQS standard
 * queue semantics: at-least-once delivery, visibility timeouts, a fresh receipt handle per receive, and
 * dead-lettering after maxReceiveCount receives. Files: `<dir>/messages/<id>.json`, `<dir>/dead/<id>.json`,
 * `<dir>/tmp/` (write-then-rename staging, emptied on start), `<dir>/corrupt/` (unreadable files set aside).
 * Disk is the truth; the in-memory index mirrors it and changes only after the disk write succeeds.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { QueuePort, RedeliveryPort } from '../../core/ports';

/** Options for a LocalQueue. */
export interface LocalQueueOptions {
  directory: string;
  /** Default visibility timeout for receive, in seconds (60). */
  visibilityTimeoutSeconds?: number;
  /** Receives after which a message goes to the dead-letter directory instead of being delivered (5). */
  maxReceiveCount?: number;
}

/** A message as handed to a consumer, like SQS ReceiveMessage's Message. */
export interface ReceivedMessage {
  messageId: string;
  receiptHandle: string;
  /** The JSON string that was sent, as SQS MessageBody. */
  body: string;
  receiveCount: number;
  /** Epoch milliseconds of the send, and of the first receive (0 if never received). */
  sentAt: number;
  firstReceivedAt: number;
  groupId?: string;
}

/** Message counts, like SQS ApproximateNumberOfMessages{,NotVisible,Delayed} plus the dead-letter count. */
export type QueueDepth = { visible: number; inFlight: number; delayed: number; dead: number };

/** One message file: what a consumer sees, plus the ordering and visibility state. */
interface StoredMessage extends ReceivedMessage {
  version: 1;
  /** Tie-breaker for messages sent in the same millisecond. */
  seq: number;
  visibleAt: number;
}

const MAX_DELAY_SECONDS = 900;
const MAX_VISIBILITY_SECONDS = 43_200;

/** Runs at most `limit` async tasks at once, in arrival order; a Gate(1) is a mutex. */
class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active < this.limit) this.active++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next)
        next(); // hand the slot straight on
      else this.active--;
    }
  }
}

/** File-backed SQS-like queue for the local runtime. */
export class LocalQueue implements QueuePort, RedeliveryPort {
  /** The default visibility timeout, in seconds. */
  readonly visibilityTimeoutSeconds: number;
  private readonly maxReceiveCount: number;
  private readonly dirs: { messages: string; dead: string; tmp: string; corrupt: string };
  private readonly live = new Map<string, StoredMessage>();
  private readonly dead = new Map<string, StoredMessage>();
  private readonly listeners = new Set<() => void>();
  /** Serializes every change to existing messages. */
  private readonly mutex = new Gate(1);
  /** Bounds open files, so thousands of parallel sends cannot exhaust descriptors. */
  private readonly io = new Gate(32);
  private ready: Promise<void> | undefined;
  private seq = 0;

  constructor(options: LocalQueueOptions) {
    const timeout = options.visibilityTimeoutSeconds ?? 60;
    this.visibilityTimeoutSeconds = checkSeconds('visibilityTimeoutSeconds', timeout, MAX_VISIBILITY_SECONDS);
    this.maxReceiveCount = options.maxReceiveCount ?? 5;
    if (!(this.maxReceiveCount >= 1 && Number.isInteger(this.maxReceiveCount))) {
      throw new RangeError('maxReceiveCount must be a positive integer');
    }
    const dir = (name: string): string => join(options.directory, name);
    this.dirs = { messages: dir('messages'), dead: dir('dead'), tmp: dir('tmp'), corrupt: dir('corrupt') };
  }

  /** Registers a listener called after each successful send; returns a function that unregisters it. */
  onSend(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Durably enqueues one message (the body is JSON-encoded, as SqsQueue does). */
  async send(body: unknown, options?: { delaySeconds?: number; groupId?: string }): Promise<void> {
    const encoded = JSON.stringify(body);
    if (encoded === undefined) throw new TypeError('message body is not JSON-serializable');
    const delay = checkSeconds('delaySeconds', options?.delaySeconds ?? 0, MAX_DELAY_SECONDS);
    await this.init();
    const now = Date.now();
    const message: StoredMessage = {
      ...{ version: 1, messageId: randomUUID(), body: encoded, sentAt: now, seq: this.seq++ },
      ...{ visibleAt: now + delay * 1000, receiveCount: 0, receiptHandle: '', firstReceivedAt: 0 },
      ...(options?.groupId === undefined ? {} : { groupId: options.groupId }),
    };
    // A new file under a fresh id conflicts with nothing, so the write runs outside the mutex
    // (concurrent sends overlap their fsyncs); the index insert is synchronous and so atomic.
    await this.write(this.dirs.messages, message);
    this.live.set(message.messageId, message);
    for (const listener of this.listeners) listener();
  }

  /** Returns up to `max` visible messages, oldest first, hiding each for the visibility timeout. */
  async receive(max: number, visibilityTimeoutSeconds?: number): Promise<ReceivedMessage[]> {
    if (!Number.isInteger(max) || max < 1) throw new RangeError('max must be a positive integer');
    const seconds = visibilityTimeoutSeconds ?? this.visibilityTimeoutSeconds;
    const timeout = checkSeconds('visibilityTimeoutSeconds', seconds, MAX_VISIBILITY_SECONDS);
    await this.init();
    return this.mutex.run(async () => {
      const now = Date.now();
      await this.sweep(now);
      const visible = [...this.live.values()].filter((m) => m.visibleAt <= now).slice(0, max);
      return this.persistAll(visible.map((m) => received(m, now, timeout)));
    });
  }

  /** Deletes the message if `receiptHandle` is its current one; returns false for a stale or unknown handle. */
  async delete(receiptHandle: string): Promise<boolean> {
    await this.init();
    return this.mutex.run(async () => {
      const message = this.current(receiptHandle);
      if (!message) return false;
      await rm(this.path(this.dirs.messages, message.messageId), { force: true });
      this.live.delete(message.messageId);
      return true;
    });
  }

  /** Makes the message visible again `seconds` from now; returns false for a stale or unknown handle. */
  async changeVisibility(receiptHandle: string, seconds: number): Promise<boolean> {
    const timeout = checkSeconds('seconds', seconds, MAX_VISIBILITY_SECONDS);
    await this.init();
    return this.mutex.run(async () => {
      const message = this.current(receiptHandle);
      if (!message) return false;
      const updated = { ...message, visibleAt: Date.now() + timeout * 1000 };
      await this.write(this.dirs.messages, updated);
      this.live.set(updated.messageId, updated);
      return true;
    });
  }

  /** QueuePort's retryIn: changeVisibility, where a stale handle (the message moved on) is no error. */
  async retryIn(receiptHandle: string, seconds: number): Promise<void> {
    await this.changeVisibility(receiptHandle, seconds);
  }

  /**
   * Makes every received, undeleted message visible now. For the one process that owns the directory, at
   * start: whoever received those messages is gone, so they need not wait out their visibility timeout.
   */
  async releaseInFlight(): Promise<number> {
    await this.init();
    return this.mutex.run(async () => {
      const now = Date.now();
      const inFlight = [...this.live.values()].filter((m) => m.receiveCount > 0 && m.visibleAt > now);
      await this.persistAll(inFlight.map((m) => ({ ...m, visibleAt: now })));
      return inFlight.length;
    });
  }

  /** Messages moved to the dead-letter directory, oldest first. */
  async deadLetters(): Promise<ReceivedMessage[]> {
    await this.init();
    return this.mutex.run(async () => {
      await this.sweep(Date.now());
      return [...this.dead.values()].sort(byAge).map(toReceived);
    });
  }

  /** Current counts; moves any exhausted, visible-again messages to the dead letters first. */
  async depth(): Promise<QueueDepth> {
    await this.init();
    return this.mutex.run(async () => {
      const now = Date.now();
      await this.sweep(now);
      const depth: QueueDepth = { visible: 0, inFlight: 0, delayed: 0, dead: this.dead.size };
      for (const m of this.live.values()) {
        if (m.visibleAt <= now) depth.visible++;
        else if (m.receiveCount > 0) depth.inFlight++;
        else depth.delayed++;
      }
      return depth;
    });
  }

  private init(): Promise<void> {
    this.ready ??= this.load().catch((error: unknown) => {
      this.ready = undefined; // let a later call retry rather than caching the failure forever
      throw error;
    });
    return this.ready;
  }

  private async load(): Promise<void> {
    await Promise.all(Object.values(this.dirs).map((dir) => mkdir(dir, { recursive: true })));
    for (const name of await readdir(this.dirs.tmp)) await rm(join(this.dirs.tmp, name), { recursive: true });
    const dead = await this.readAll(this.dirs.dead);
    const live = await this.readAll(this.dirs.messages);
    for (const m of dead) this.dead.set(m.messageId, m);
    for (const m of live) this.live.set(m.messageId, m);
    this.seq = [...live, ...dead].reduce((next, m) => Math.max(next, m.seq + 1), 0);
  }

  private async readAll(dir: string): Promise<StoredMessage[]> {
    const names = (await readdir(dir)).filter((name) => name.endsWith('.json'));
    const read = async (name: string): Promise<StoredMessage | undefined> => {
      const message = parseStored(await this.io.run(() => readFile(join(dir, name), 'utf8')), name);
      // Only our renames make these files, so this is outside damage: set it aside and go on.
      if (!message) await rename(join(dir, name), join(this.dirs.corrupt, `${Date.now()}-${name}`));
      return message;
    };
    const messages = await Promise.all(names.map(read));
    return messages.filter((m): m is StoredMessage => m !== undefined).sort(byAge);
  }

  /** Moves visible messages that have used up their receives to the dead-letter directory. */
  private async sweep(now: number): Promise<void> {
    for (const message of [...this.live.values()]) {
      if (message.visibleAt > now || message.receiveCount < this.maxReceiveCount) continue;
      await rename(this.path(this.dirs.messages, message.messageId), this.path(this.dirs.dead, message.messageId));
      this.live.delete(message.messageId);
      this.dead.set(message.messageId, message);
    }
  }

  private async persistAll(updated: StoredMessage[]): Promise<ReceivedMessage[]> {
    const results = await Promise.allSettled(updated.map((m) => this.write(this.dirs.messages, m)));
    const delivered = updated.filter((_, i) => results[i]?.status === 'fulfilled');
    for (const message of delivered) this.live.set(message.messageId, message);
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    // Those already persisted stay hidden until their visibility passes, as a lost SQS response would.
    if (failure) throw failure.reason;
    return delivered.map(toReceived);
  }

  private current(receiptHandle: string): StoredMessage | undefined {
    const id = receiptHandle.split(':', 1)[0] ?? '';
    const message = this.live.get(id);
    return message && message.receiptHandle === receiptHandle ? message : undefined;
  }

  private path(dir: string, id: string): string {
    return join(dir, `${id}.json`);
  }

  /** Atomic durable write: temp file, fsync, rename over the target. */
  private write(dir: string, message: StoredMessage): Promise<void> {
    return this.io.run(async () => {
      const tmp = join(this.dirs.tmp, `${message.messageId}.${randomUUID()}.tmp`);
      const handle = await open(tmp, 'w');
      try {
        await handle.writeFile(JSON.stringify(message), 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(tmp, this.path(dir, message.messageId));
    });
  }
}

function received(message: StoredMessage, now: number, timeoutSeconds: number): StoredMessage {
  return {
    ...message,
    receiveCount: message.receiveCount + 1,
    visibleAt: now + timeoutSeconds * 1000,
    receiptHandle: `${message.messageId}:${randomUUID()}`,
    firstReceivedAt: message.firstReceivedAt || now,
  };
}

function toReceived(stored: StoredMessage): ReceivedMessage {
  const { version: _version, seq: _seq, visibleAt: _visibleAt, ...message } = stored;
  return message;
}

function byAge(a: StoredMessage, b: StoredMessage): number {
  return a.sentAt - b.sentAt || a.seq - b.seq;
}

/** The message stored in file `name`, or undefined when the text is not one (the caller sets it aside). */
function parseStored(text: string, name: string): StoredMessage | undefined {
  let v: Partial<Record<keyof StoredMessage, unknown>> | null;
  try {
    v = JSON.parse(text) as typeof v;
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null) return undefined;
  const strings = [v.messageId, v.body, v.receiptHandle, v.groupId ?? ''];
  const numbers = [v.sentAt, v.seq, v.visibleAt, v.receiveCount, v.firstReceivedAt];
  const ok = v.version === 1 && strings.every((x) => typeof x === 'string') && numbers.every(Number.isFinite);
  return ok && name === `${String(v.messageId)}.json` ? (v as StoredMessage) : undefined;
}

function checkSeconds(name: string, value: number, max: number): number {
  if (!Number.isFinite(value) || value < 0 || value > max) {
    throw new RangeError(`${name} must be between 0 and ${max} seconds`);
  }
  return value;
}
