/**
 * How the worker treats failed work, with the real handler against the test runtime's table and an
 * object store that cannot be reached (every index build fails there for real): each batch keeps its own
 * failures, a failed try comes back after a short growing delay and is logged at warn with its kind, ids,
 * attempt and error, failures are counted by kind, and the local queue gives up after
 * KMEM_WORK_MAX_ATTEMPTS receives.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { lambdaContext } from '../../functions/local/lambda-context';
import { QueuePump } from '../../functions/local/queue-pump';
import { setProcessEnv } from '../support/process-env';

const deadPort = await unusedPort();
// Powertools reads its settings when its logger and metrics are made: set before the worker's modules load,
// afresh here (the file's worker process may have loaded them for an earlier file), and put back after
const restoreEnv = setProcessEnv({ POWERTOOLS_METRICS_DISABLED: 'false', POWERTOOLS_LOG_LEVEL: 'WARN' });
vi.resetModules();
const { testConfig, testDeps } = await import('../support/stores');
const { createWorkerHandler } = await import('../../functions/worker/handler');
const { createAccount } = await import('../../functions/core/use-cases/accounts');
const { createMemory } = await import('../../functions/core/use-cases/memories');
const { createSession } = await import('../../functions/core/use-cases/sessions');
const { addSessions } = await import('../../functions/core/use-cases/conversations');
const { emitWebhookEvent } = await import('../../functions/core/webhooks/outbox');

const deps = testDeps(
  testConfig({ KMEM_S3_ENDPOINT: `http://127.0.0.1:${deadPort}`, KMEM_WORK_RETRY_SECONDS: '1', KMEM_WORK_MAX_ATTEMPTS: '3' }),
);
const queue = deps.localQueue;
const handler = createWorkerHandler(() => deps.worker);
let accountId: string;
let slow: Server;
/** What the process wrote (Powertools logs and metrics), one JSON document a line. */
const output: string[] = [];
const streams = [process.stdout, process.stderr] as const;
const writes = streams.map((stream) => stream.write.bind(stream));

beforeAll(async () => {
  streams.forEach((stream, i) => {
    stream.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      output.push(String(chunk));
      return writes[i]!(chunk, ...rest);
    }) as typeof stream.write;
  });
  accountId = (await createAccount(deps, `failures-${process.pid}-${Date.now()}`)).account.id;
  slow = createServer((_, res) => setTimeout(() => res.end('ok'), 2_500));
  await new Promise<void>((done) => slow.listen(0, '127.0.0.1', done));
});
afterAll(async () => {
  streams.forEach((stream, i) => (stream.write = writes[i]!));
  slow.close();
  deps.documentClient.destroy();
  restoreEnv();
  vi.resetModules(); // the next file in this process loads logger and metrics with its own settings
});

/** A memory with one attached session: its sync message is queued, and every build of it fails (no object store). */
async function failingSync(): Promise<{ memoryId: string; body: string }> {
  const memory = await createMemory(deps, accountId, { name: 'chat', memoryType: 'vector' });
  const session = await createSession(deps, accountId, {});
  await addSessions(deps, accountId, memory.id, [session.id]);
  return { memoryId: memory.id, body: await takeQueued('memory.sync-session') };
}

async function takeQueued(kind: string): Promise<string> {
  const [message] = await queue.receive(1, 60);
  if (!message || !message.body.includes(kind)) throw new Error(`expected a queued ${kind}`);
  await queue.delete(message.receiptHandle);
  return message.body;
}

function logged(memoryId: string): Array<Record<string, unknown>> {
  return parsed().filter((line) => line.level === 'WARN' && JSON.stringify(line.ids ?? {}).includes(memoryId));
}

function parsed(): Array<Record<string, unknown>> {
  return output
    .join('')
    .split('\n')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
}

async function until(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('failed work', () => {
  it('keeps each batch its own failures when batches run at once', async () => {
    const warmUp = await failingSync(); // the first build loads the embedder: later ones fail within a second
    const alone = await handler(event([record(warmUp.body, 'warm-up')]), lambdaContext('worker', 'warm-up'));
    expect(alone?.batchItemFailures).toEqual([{ itemIdentifier: 'warm-up' }]);
    const sync = await failingSync();
    await emitWebhookEvent(deps, {
      accountId,
      url: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/hook`,
      type: 'memory.ingestion.completed',
      data: { memoryID: sync.memoryId },
    });
    const webhook = await takeQueued('webhook.deliver');
    // batch A: a sync that fails fast, then a webhook that takes 2.5 s to succeed
    const first = handler(event([record(sync.body, 'a-sync'), record(webhook, 'a-hook')]), lambdaContext('worker', 'a'));
    const sent = Date.now();
    await until(() => logged(sync.memoryId).length > 0 || Date.now() - sent > 1_000, 10_000, 'the sync to fail');
    // batch B starts while A is still running
    const second = await handler(event([record('{"kind":"not work"}', 'b-other')]), lambdaContext('worker', 'b'));
    expect(second?.batchItemFailures).toEqual([]);
    expect((await first)?.batchItemFailures).toEqual([{ itemIdentifier: 'a-sync' }]);
  });

  it('retries after a short growing delay, logs every failure with why, counts them by kind, and gives up on the last try', async () => {
    const sync = await failingSync();
    await queue.send(JSON.parse(sync.body));
    const pump = new QueuePump({ queue, handler, pollIntervalMs: 50, log: () => undefined });
    const started = Date.now();
    pump.start();
    try {
      // tries at 0 s, +1 s, +2 s (not +15 min, the visibility timeout); the third is the last
      await until(() => logged(sync.memoryId).length >= 3, 20_000, 'three tries');
      await pump.drain(5_000);
    } finally {
      await pump.stop();
    }
    expect(Date.now() - started).toBeLessThan(15_000);
    const warnings = logged(sync.memoryId);
    expect(warnings.map((w) => w.attempt)).toEqual([1, 2, 3]);
    for (const warning of warnings) {
      expect(warning).toMatchObject({ kind: 'memory.sync-session', ids: { accountId, memoryId: sync.memoryId } });
      expect(JSON.stringify(warning.error)).toMatch(/ECONNREFUSED|connect/i);
    }
    expect(String(warnings[2]?.message)).toMatch(/last try/);
    const counted = parsed().filter((line) => line.kind === 'memory.sync-session' && line.WorkFailures === 1);
    expect(counted.length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(counted[0]?._aws)).toContain('"kind"');
  });

  it('dead-letters a message after KMEM_WORK_MAX_ATTEMPTS receives on the local queue', async () => {
    await queue.send({ kind: 'file.process', accountId, fileId: 'never-processed' });
    for (let i = 0; i < 3; i++) expect(await queue.receive(1, 0)).toHaveLength(1);
    expect(await queue.receive(1, 0)).toHaveLength(0);
    expect((await queue.deadLetters()).map((m) => m.body)).toContainEqual(expect.stringContaining('never-processed'));
  });
});

function event(records: SQSEvent['Records']): SQSEvent {
  return { Records: records };
}

function record(body: string, messageId: string): SQSEvent['Records'][number] {
  return {
    messageId,
    receiptHandle: messageId,
    body,
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:local:0:test',
    awsRegion: 'local',
    attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'TEST', ApproximateFirstReceiveTimestamp: '0' },
  };
}

async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}
