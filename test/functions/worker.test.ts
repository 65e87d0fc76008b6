/**
 * The worker's guarantees, with the real handler against the test runtime's stores: a redelivered or
 * concurrently repeated message leaves exactly one copy of every derived item; a worker killed in the
 * middle of a file leaves nothing half-made once its message comes back; concurrent starts cannot spend
 * more than the budget.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account } from '../../functions/core/model';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { createFile, uploadFile } from '../../functions/core/use-cases/files';
import { startIngestion } from '../../functions/core/use-cases/ingestion';
import { createMemory } from '../../functions/core/use-cases/memories';
import { addFiles } from '../../functions/core/use-cases/memory-files';
import { publishedChunks, publishedIndex } from '../support/published-index';
import { lambdaContext } from '../../functions/local/lambda-context';
import { QueuePump } from '../../functions/local/queue-pump';
import type { WorkMessage } from '../../functions/core/work';
import { createWorkerHandler } from '../../functions/worker/handler';
import { storeEnvironment, testConfig, testDeps } from '../support/stores';

const environment = { ...storeEnvironment(), KMEM_LOCAL_QUEUE_VISIBILITY_SECONDS: '1', KMEM_DEFAULT_TOKEN_LIMIT: '1000' };
const deps = testDeps(testConfig(environment));
const handler = createWorkerHandler(() => deps.worker);
let account: Account;

beforeAll(async () => {
  account = (await createAccount(deps, `worker-${process.pid}-${Date.now()}`)).account;
});
afterAll(() => deps.documentClient.destroy());

/** Receives everything the queue holds (waiting out delays) and hands each message to the handler `times` times at once. */
async function runQueued(times: number): Promise<WorkMessage[]> {
  const queue = deps.localQueue;
  if (!queue) throw new Error('no local queue');
  const seen: WorkMessage[] = [];
  for (let round = 0; round < 100; round++) {
    const received = await queue.receive(10, 5);
    if (received.length === 0) {
      const depth = await queue.depth();
      if (depth.delayed + depth.inFlight === 0) return seen;
      await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    const records = received.flatMap((m) => Array.from({ length: times }, (_, i) => sqsRecord(m.body, `${m.messageId}-${i}`)));
    const answer = await handler({ Records: records }, lambdaContext('worker', 'test'));
    expect(answer?.batchItemFailures ?? []).toEqual([]);
    for (const m of received) {
      seen.push(JSON.parse(m.body) as WorkMessage);
      await queue.delete(m.receiptHandle);
    }
  }
  throw new Error('the queue did not empty');
}

function sqsRecord(body: string, messageId: string): SQSEvent['Records'][number] {
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

async function textFileRecord(accountId: string, name: string, text: string) {
  const upload = await uploadFile(deps, accountId, { name, contentType: 'text/plain', bytes: Buffer.from(text) });
  return createFile(deps, accountId, { name, key: upload.key, fileType: 'text' });
}

describe('the worker', () => {
  it('leaves exactly one copy of everything when every message is delivered three times at once', async () => {
    const rich = (await createAccount(deps, `rich-${process.pid}-${Date.now()}`)).account;
    await deps.accounts.refundTokens(rich.id, 100_000, 'grant');
    const a = await textFileRecord(rich.id, 'tides.txt', 'Spring tides come with the new and full moon. '.repeat(30));
    const b = await textFileRecord(rich.id, 'bees.txt', 'Honey bees dance to show where the flowers are. '.repeat(30));
    await runQueued(3);
    const memory = await createMemory(deps, rich.id, { name: 'm', memoryType: 'vector', chunkSize: 300 });
    await addFiles(deps, rich.id, memory.id, [a.id, b.id]);
    const before = (await deps.accounts.get(rich.id))?.tokensRemaining ?? 0;
    const started = await startIngestion(deps, rich.id, memory.id);
    await runQueued(3);

    const after = await deps.memories.get(rich.id, memory.id);
    // concurrent copies may each publish a (complete) version; none may add a second copy of anything
    expect(after).toMatchObject({ step: 'ready', fileCount: 2 });
    const chunks = await publishedChunks(deps.objects, after);
    expect(chunks.length).toBeGreaterThan(4);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(chunks.length);
    expect(after?.chunkCount).toBe(chunks.length);
    const index = (await publishedIndex(deps.objects, after))!.retrieval;
    expect([...index.chunks.ids].sort()).toEqual(chunks.map((c) => c.id).sort());
    const files = await Promise.all([a, b].map((f) => deps.files.get(rich.id, f.id)));
    const used = files.reduce((sum, f) => sum + (f?.tokens ?? 0), 0);
    expect((await deps.accounts.get(rich.id))?.tokensRemaining).toBe(before - used);
    expect(started.job.reservedTokens).toBeGreaterThanOrEqual(used);
    expect(await deps.objects.list(`silver/${rich.id}/${a.id}/`)).toEqual([`silver/${rich.id}/${a.id}/transcript.txt`]);
  });

  it('finishes a file whose worker was killed halfway, with nothing duplicated', async () => {
    const file = await textFileRecord(
      account.id,
      'long.txt',
      'The river delta floods each spring and feeds the rice fields. '.repeat(40_000),
    );
    const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, '../support/worker-process.ts')], {
      env: { ...process.env, ...environment },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let state: string | undefined;
    for (let i = 0; i < 1000 && state !== 'processing'; i++) {
      state = (await deps.files.get(account.id, file.id))?.state;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(state).toBe('processing');

    const queue = deps.localQueue;
    if (!queue) throw new Error('no local queue');
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // the killed worker's receive becomes visible again
    const pump = new QueuePump({ queue, handler, visibilityTimeoutSeconds: 30 });
    pump.start();
    await pump.drain(30_000);
    await pump.stop();
    const done = await deps.files.get(account.id, file.id);
    expect(done).toMatchObject({ state: 'ready', length: 62 * 40_000 - 1 });
    expect(await deps.objects.list(`silver/${account.id}/${file.id}/`)).toHaveLength(1);
  }, 60_000);

  it('never lets concurrent starts spend more than the budget', async () => {
    const poor = (await createAccount(deps, `budget-${process.pid}-${Date.now()}`)).account; // 1,000 tokens
    const memories = [];
    for (let i = 0; i < 6; i++) {
      const file = await textFileRecord(poor.id, `r${i}.txt`, `Report ${i}: ${'the harvest was good this year. '.repeat(25)}`);
      const memory = await createMemory(deps, poor.id, { name: `m${i}`, memoryType: 'vector' });
      await addFiles(deps, poor.id, memory.id, [file.id]);
      memories.push(memory);
    }
    const results = await Promise.allSettled(memories.map((m) => startIngestion(deps, poor.id, m.id)));
    const started = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
    const reserved = started.reduce((sum, s) => sum + s.job.reservedTokens, 0);
    expect(started.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    expect(reserved).toBeLessThanOrEqual(1000);
    expect((await deps.accounts.get(poor.id))?.tokensRemaining).toBe(1000 - reserved);
    for (const reason of refused) expect(reason).toMatch(/ingestion needs/);
  });
});
