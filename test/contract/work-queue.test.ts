/**
 * The work queue's contract (what the worker relies on: at-least-once delivery, visibility, delays, a
 * fresh receipt handle per receive, redelivery sooner on retryIn, dead letters after the last receive),
 * on the local runtime's file queue and on the in-memory queue. Fast tier: neither needs a store server.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryQueue } from '../../functions/adapters/memory/queue';
import { LocalQueue } from '../../functions/adapters/queue/local-queue';

type Queue = Pick<LocalQueue, 'send' | 'receive' | 'delete' | 'changeVisibility' | 'retryIn' | 'depth' | 'deadLetters'>;
type MakeQueue = (options: { visibilityTimeoutSeconds: number; maxReceiveCount: number }) => Queue;

const queues: Array<[string, MakeQueue]> = [
  [
    'LocalQueue (files)',
    (options) => new LocalQueue({ directory: fs.mkdtempSync(path.join(os.tmpdir(), 'kmem-queue-contract-')), ...options }),
  ],
  ['MemoryQueue', (options) => new MemoryQueue(options)],
];

describe.each(queues)('work queue contract: %s', (_name, make) => {
  let queue: Queue;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    queue = make({ visibilityTimeoutSeconds: 30, maxReceiveCount: 2 });
  });
  afterEach(() => vi.useRealTimers());
  const later = (seconds: number) => vi.setSystemTime(new Date(Date.now() + seconds * 1000));

  it('delivers messages oldest first, hiding each received one until its visibility ends', async () => {
    for (const n of [1, 2, 3]) await queue.send({ n });
    const first = await queue.receive(2);
    expect(first.map((m) => JSON.parse(m.body))).toEqual([{ n: 1 }, { n: 2 }]);
    expect((await queue.receive(10)).map((m) => JSON.parse(m.body))).toEqual([{ n: 3 }]);
    expect(await queue.receive(10)).toEqual([]);
    expect(await queue.depth()).toEqual({ visible: 0, inFlight: 3, delayed: 0, dead: 0 });
    later(31);
    const again = await queue.receive(10);
    expect(again.map((m) => [JSON.parse(m.body), m.receiveCount])).toEqual([
      [{ n: 1 }, 2],
      [{ n: 2 }, 2],
      [{ n: 3 }, 2],
    ]);
    expect(again[0]?.receiptHandle).not.toBe(first[0]?.receiptHandle);
  });

  it('deletes by the current receipt handle only', async () => {
    await queue.send('x');
    const [old] = await queue.receive(1);
    later(31);
    const [current] = await queue.receive(1);
    expect(await queue.delete(old?.receiptHandle ?? '')).toBe(false);
    expect(await queue.delete(current?.receiptHandle ?? '')).toBe(true);
    expect(await queue.delete(current?.receiptHandle ?? '')).toBe(false);
    expect(await queue.depth()).toEqual({ visible: 0, inFlight: 0, delayed: 0, dead: 0 });
  });

  it('holds a delayed message back, and brings a failed try back after retryIn', async () => {
    await queue.send('later', { delaySeconds: 10 });
    expect(await queue.receive(1)).toEqual([]);
    expect((await queue.depth()).delayed).toBe(1);
    later(10);
    const [message] = await queue.receive(1);
    await queue.retryIn(message?.receiptHandle ?? '', 2);
    later(1);
    expect(await queue.receive(1)).toEqual([]);
    later(1);
    expect((await queue.receive(1)).map((m) => m.body)).toEqual([JSON.stringify('later')]);
    await queue.retryIn('stale:handle', 1); // no error for a handle that moved on
    expect(await queue.changeVisibility('stale:handle', 1)).toBe(false);
  });

  it('dead-letters a message after its last receive, keeping its body', async () => {
    await queue.send({ job: 1 }, { groupId: 'g' });
    await queue.receive(1);
    later(31);
    await queue.receive(1);
    later(31);
    expect(await queue.receive(1)).toEqual([]);
    const dead = await queue.deadLetters();
    expect(dead.map((m) => [m.body, m.receiveCount, m.groupId])).toEqual([[JSON.stringify({ job: 1 }), 2, 'g']]);
    expect(await queue.depth()).toEqual({ visible: 0, inFlight: 0, delayed: 0, dead: 1 });
  });

  it('refuses what SQS refuses: bodies that are not JSON, delays and counts out of range', async () => {
    await expect(queue.send(undefined)).rejects.toThrow(TypeError);
    await expect(queue.send('x', { delaySeconds: 901 })).rejects.toThrow(RangeError);
    await expect(queue.receive(0)).rejects.toThrow(RangeError);
  });
});
