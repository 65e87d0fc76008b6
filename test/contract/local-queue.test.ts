/**
 * Contract tests for the local SQS stand-in (LocalQueue) and the pump that feeds an SQS handler.
 * Real files in temp dirs; visibility waits are ~1 s, so the file stays well under 20 s.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalQueue } from '../../functions/adapters/queue/local-queue';
import { QueuePump, type QueuePumpOptions } from '../../functions/local/queue-pump';

const dirs: string[] = [];
const pumps: QueuePump[] = [];

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kmem-queue-'));
  dirs.push(dir);
  return dir;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function pump(options: QueuePumpOptions): QueuePump {
  const p = new QueuePump(options);
  pumps.push(p);
  return p;
}

afterEach(async () => {
  await Promise.all(pumps.splice(0).map((p) => p.stop()));
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('LocalQueue', () => {
  it('sends, receives and deletes, oldest first', async () => {
    const dir = tempDir();
    const queue = new LocalQueue({ directory: dir });
    for (const n of [1, 2, 3, 4, 5]) await queue.send({ n });

    const got = await queue.receive(10);
    expect(got.map((m) => JSON.parse(m.body) as unknown)).toEqual([1, 2, 3, 4, 5].map((n) => ({ n })));
    expect(got.every((m) => m.receiveCount === 1 && m.firstReceivedAt >= m.sentAt)).toBe(true);
    expect(await queue.receive(10)).toEqual([]);
    expect(await queue.depth()).toEqual({ visible: 0, inFlight: 5, delayed: 0, dead: 0 });

    for (const m of got) expect(await queue.delete(m.receiptHandle)).toBe(true);
    expect(await queue.delete(got[0]!.receiptHandle)).toBe(false);
    expect(await queue.depth()).toEqual({ visible: 0, inFlight: 0, delayed: 0, dead: 0 });
    expect(fs.readdirSync(path.join(dir, 'messages'))).toEqual([]);
  });

  it('respects max and returns the rest later', async () => {
    const queue = new LocalQueue({ directory: tempDir() });
    for (let n = 0; n < 7; n++) await queue.send(n);
    const first = await queue.receive(3);
    const second = await queue.receive(10);
    expect(first.map((m) => m.body)).toEqual(['0', '1', '2']);
    expect(second.map((m) => m.body)).toEqual(['3', '4', '5', '6']);
  });

  it('redelivers after the visibility timeout with a new receipt handle', async () => {
    const queue = new LocalQueue({ directory: tempDir(), visibilityTimeoutSeconds: 1 });
    await queue.send({ job: 'x' });
    const [first] = await queue.receive(1);
    expect(await queue.receive(1)).toEqual([]);
    await sleep(1_100);
    const [again] = await queue.receive(1);
    expect(again?.messageId).toBe(first?.messageId);
    expect(again?.receiveCount).toBe(2);
    expect(again?.receiptHandle).not.toBe(first?.receiptHandle);
  });

  it('ignores a stale receipt handle', async () => {
    const queue = new LocalQueue({ directory: tempDir() });
    await queue.send('m');
    const [first] = await queue.receive(1, 0);
    const [second] = await queue.receive(1, 30);
    expect(second?.messageId).toBe(first?.messageId);
    expect(await queue.delete(first!.receiptHandle)).toBe(false);
    expect(await queue.changeVisibility(first!.receiptHandle, 0)).toBe(false);
    expect(await queue.delete('not-a-handle')).toBe(false);
    expect((await queue.depth()).inFlight).toBe(1);
    expect(await queue.delete(second!.receiptHandle)).toBe(true);
    expect(await queue.depth()).toEqual({ visible: 0, inFlight: 0, delayed: 0, dead: 0 });
  });

  it('changes visibility with a current handle', async () => {
    const queue = new LocalQueue({ directory: tempDir() });
    await queue.send('m');
    const [first] = await queue.receive(1, 300);
    expect(await queue.changeVisibility(first!.receiptHandle, 0)).toBe(true);
    const [again] = await queue.receive(1);
    expect(again?.messageId).toBe(first?.messageId);
  });

  it('delays a message', async () => {
    const queue = new LocalQueue({ directory: tempDir() });
    await queue.send('later', { delaySeconds: 1 });
    await queue.send('now');
    expect((await queue.receive(10)).map((m) => m.body)).toEqual(['"now"']);
    expect((await queue.depth()).delayed).toBe(1);
    await sleep(1_100);
    expect((await queue.receive(10)).map((m) => m.body)).toEqual(['"later"']);
  });

  it('dead-letters a message after maxReceiveCount receives', async () => {
    const dir = tempDir();
    const queue = new LocalQueue({ directory: dir, maxReceiveCount: 2 });
    await queue.send({ poison: true });
    expect((await queue.receive(1, 0))[0]?.receiveCount).toBe(1);
    expect((await queue.receive(1, 0))[0]?.receiveCount).toBe(2);
    expect(await queue.receive(1, 0)).toEqual([]);
    const dead = await queue.deadLetters();
    expect(dead).toHaveLength(1);
    expect(dead[0]?.body).toBe('{"poison":true}');
    expect(dead[0]?.receiveCount).toBe(2);
    expect(await queue.depth()).toEqual({ visible: 0, inFlight: 0, delayed: 0, dead: 1 });
    expect(fs.readdirSync(path.join(dir, 'dead'))).toEqual([`${dead[0]?.messageId}.json`]);
    expect(await new LocalQueue({ directory: dir }).deadLetters()).toHaveLength(1);
  });

  it('survives a restart: undeleted messages stay, in-flight ones come back, crash debris is cleaned', async () => {
    const dir = tempDir();
    const before = new LocalQueue({ directory: dir });
    for (const n of ['a', 'b', 'c']) await before.send(n);
    const [a, b] = await before.receive(2, 1);
    expect(await before.delete(a!.receiptHandle)).toBe(true);
    fs.writeFileSync(path.join(dir, 'tmp', 'half-written.tmp'), '{"version":1,"id":');
    fs.writeFileSync(path.join(dir, 'messages', 'garbage.json'), '{"version":1,"id":');

    const after = new LocalQueue({ directory: dir });
    expect(await after.depth()).toEqual({ visible: 1, inFlight: 1, delayed: 0, dead: 0 });
    expect(fs.readdirSync(path.join(dir, 'tmp'))).toEqual([]);
    expect(fs.readdirSync(path.join(dir, 'corrupt'))).toHaveLength(1);
    expect((await after.receive(10, 30)).map((m) => m.body)).toEqual(['"c"']);
    await sleep(1_100);
    const [back] = await after.receive(10, 30);
    expect(back?.messageId).toBe(b?.messageId);
    expect(back?.receiveCount).toBe(2);
    expect(await after.delete(b!.receiptHandle)).toBe(false);
    expect(await after.delete(back!.receiptHandle)).toBe(true);
    expect((await new LocalQueue({ directory: dir }).depth()).inFlight).toBe(1);
  });

  it('keeps the current receipt handle valid across a restart', async () => {
    const dir = tempDir();
    const before = new LocalQueue({ directory: dir });
    await before.send('x');
    const [m] = await before.receive(1, 30);
    const after = new LocalQueue({ directory: dir });
    expect(await after.delete(m!.receiptHandle)).toBe(true);
    expect(await after.depth()).toEqual({ visible: 0, inFlight: 0, delayed: 0, dead: 0 });
  });

  it('handles 100 parallel sends and parallel receives exactly once', async () => {
    const dir = tempDir();
    const queue = new LocalQueue({ directory: dir });
    await Promise.all(Array.from({ length: 100 }, (_, n) => queue.send({ n })));
    expect(fs.readdirSync(path.join(dir, 'messages'))).toHaveLength(100);

    const batches = await Promise.all(Array.from({ length: 15 }, () => queue.receive(10, 60)));
    const all = batches.flat();
    expect(all).toHaveLength(100);
    expect(new Set(all.map((m) => m.messageId)).size).toBe(100);
    expect(new Set(all.map((m) => (JSON.parse(m.body) as { n: number }).n)).size).toBe(100);
    expect(await queue.receive(10)).toEqual([]);

    const deleted = await Promise.all(all.map((m) => queue.delete(m.receiptHandle)));
    expect(deleted.every(Boolean)).toBe(true);
    expect(fs.readdirSync(path.join(dir, 'messages'))).toEqual([]);
  });

  it('rejects invalid arguments', async () => {
    const queue = new LocalQueue({ directory: tempDir() });
    await expect(queue.send('x', { delaySeconds: -1 })).rejects.toThrow(RangeError);
    await expect(queue.send(undefined)).rejects.toThrow(TypeError);
    await expect(queue.receive(0)).rejects.toThrow(RangeError);
    expect(() => new LocalQueue({ directory: tempDir(), maxReceiveCount: 0 })).toThrow(RangeError);
  });
});

describe('QueuePump', () => {
  function recorder(decide: (record: SQSRecord, attempt: number) => 'ok' | 'fail' | 'throw') {
    const seen: SQSRecord[] = [];
    const attempts = new Map<string, number>();
    const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
      const failures: SQSBatchResponse['batchItemFailures'] = [];
      let shouldThrow = false;
      for (const record of event.Records) {
        seen.push(record);
        const attempt = (attempts.get(record.body) ?? 0) + 1;
        attempts.set(record.body, attempt);
        const verdict = decide(record, attempt);
        if (verdict === 'fail') failures.push({ itemIdentifier: record.messageId });
        if (verdict === 'throw') shouldThrow = true;
      }
      if (shouldThrow) throw new Error('handler blew up');
      return { batchItemFailures: failures };
    };
    return { seen, attempts, handler };
  }

  it('delivers real SQS events and deletes what succeeded', async () => {
    const queue = new LocalQueue({ directory: tempDir() });
    const { seen, handler } = recorder(() => 'ok');
    let contextName = '';
    const p = pump({
      queue,
      handler: async (event, context) => {
        contextName = context.functionName;
        expect(context.getRemainingTimeInMillis()).toBeGreaterThan(0);
        return handler(event);
      },
      pollIntervalMs: 20,
      queueArn: 'arn:aws:sqs:local:000000000000:test',
    });
    await queue.send({ hello: 'world' }, { groupId: 'g1' });
    await queue.send({ n: 2 });
    p.start();
    await p.drain(5_000);

    expect(seen).toHaveLength(2);
    const record = seen.find((r) => r.body === '{"hello":"world"}')!;
    expect(record).toMatchObject({
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:local:000000000000:test',
      awsRegion: 'local',
      messageAttributes: {},
      md5OfBody: createHash('md5').update('{"hello":"world"}').digest('hex'),
      attributes: { ApproximateReceiveCount: '1', MessageGroupId: 'g1' },
    });
    expect(Number(record.attributes.SentTimestamp)).toBeGreaterThan(0);
    expect(Number(record.attributes.ApproximateFirstReceiveTimestamp)).toBeGreaterThanOrEqual(Number(record.attributes.SentTimestamp));
    expect(contextName).toContain('worker');
    expect(await queue.depth()).toEqual({ visible: 0, inFlight: 0, delayed: 0, dead: 0 });
  });

  it('redelivers only the batchItemFailures entries', async () => {
    const queue = new LocalQueue({ directory: tempDir() });
    const { attempts, seen, handler } = recorder((r, attempt) => (r.body === '"b"' && attempt === 1 ? 'fail' : 'ok'));
    const p = pump({ queue, handler, pollIntervalMs: 20, visibilityTimeoutSeconds: 1, log: () => undefined });
    for (const body of ['a', 'b', 'c']) await queue.send(body);
    p.start();
    await p.drain(5_000);
    expect(Object.fromEntries(attempts)).toEqual({ '"a"': 1, '"b"': 2, '"c"': 1 });
    expect(seen.filter((r) => r.body === '"b"').map((r) => r.attributes.ApproximateReceiveCount)).toEqual(['1', '2']);
  });

  it('redelivers the whole batch when the handler throws', async () => {
    const queue = new LocalQueue({ directory: tempDir() });
    const { attempts, handler } = recorder((r, attempt) => (r.body === '"a"' && attempt === 1 ? 'throw' : 'ok'));
    const lines: string[] = [];
    const p = pump({ queue, handler, pollIntervalMs: 20, visibilityTimeoutSeconds: 1, log: (l) => lines.push(l) });
    await queue.send('a');
    await queue.send('b');
    p.start();
    await p.drain(5_000);
    expect(Object.fromEntries(attempts)).toEqual({ '"a"': 2, '"b"': 2 });
    expect(lines.some((l) => l.includes('handler blew up'))).toBe(true);
  });

  it('dead-letters a message that keeps failing, and drain then completes', async () => {
    const queue = new LocalQueue({ directory: tempDir(), maxReceiveCount: 2 });
    const { attempts, handler } = recorder(() => 'fail');
    const p = pump({ queue, handler, pollIntervalMs: 10, visibilityTimeoutSeconds: 0, log: () => undefined });
    await queue.send('poison');
    p.start();
    await p.drain(5_000);
    expect(attempts.get('"poison"')).toBe(2);
    expect((await queue.deadLetters()).map((m) => m.body)).toEqual(['"poison"']);
  });

  it('wakes on send instead of waiting out a long poll interval', async () => {
    const queue = new LocalQueue({ directory: tempDir() });
    let deliveredAt = 0;
    const p = pump({
      queue,
      handler: async () => {
        deliveredAt = Date.now();
      },
      pollIntervalMs: 10_000,
    });
    p.start();
    await sleep(100); // the pump found nothing and is asleep
    const sentAt = Date.now();
    await queue.send('wake up');
    await p.drain(3_000);
    expect(deliveredAt).toBeGreaterThan(0);
    expect(deliveredAt - sentAt).toBeLessThan(1_000);
  });

  it('stop waits for the batch in flight', async () => {
    const queue = new LocalQueue({ directory: tempDir() });
    let started = false;
    let finished = false;
    const p = pump({
      queue,
      handler: async () => {
        started = true;
        await sleep(300);
        finished = true;
      },
      pollIntervalMs: 10,
    });
    await queue.send('slow');
    p.start();
    while (!started) await sleep(5);
    await p.stop();
    expect(finished).toBe(true);
    expect(await queue.depth()).toEqual({ visible: 0, inFlight: 0, delayed: 0, dead: 0 });
  });

  it('drain rejects when the queue does not empty in time', async () => {
    const queue = new LocalQueue({ directory: tempDir() });
    await queue.send('never processed');
    const p = pump({ queue, handler: async () => undefined });
    await expect(p.drain(100)).rejects.toThrow(/did not drain/);
  });
});

describe('LocalQueue.releaseInFlight', () => {
  it('makes what a stopped process had received visible again at once, and nothing else', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kmem-queue-release-'));
    const first = new LocalQueue({ directory: dir, visibilityTimeoutSeconds: 900 });
    await first.send('taken');
    await first.send('later', { delaySeconds: 60 });
    expect(await first.receive(10)).toHaveLength(1);
    const owner = new LocalQueue({ directory: dir, visibilityTimeoutSeconds: 900 });
    expect(await owner.releaseInFlight()).toBe(1);
    const again = await owner.receive(10);
    expect(again.map((m) => m.body)).toEqual(['"taken"']);
    expect(again[0]?.receiveCount).toBe(2);
    expect(await owner.depth()).toMatchObject({ inFlight: 1, delayed: 1 });
  });
});
