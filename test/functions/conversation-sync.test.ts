/**
 * Conversation sync converges: with the real worker against the test runtime's stores, a sync given up
 * after its last try (its build failed for real: no object store) leaves its change pending, and the next
 * change of any session of the memory brings the memory complete; a build that crashed holding the
 * memory's lease is finished by its own message when redelivered, or by any change once the lease expired.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedChunks } from '../support/published-index';
import { SYNC_LEASE_MS } from '../../functions/core/ingest/conversation-sync';
import type { WorkMessage } from '../../functions/core/work';
import { composeWorkerDeps } from '../../functions/worker/deps';
import { composeLocalDeps } from '../../functions/local/compose';
import { drainQueue } from '../support/drain-queue';
import { testConfig, testDeps } from '../support/stores';
import { runWork } from '../../functions/worker/dispatch';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { createMemory } from '../../functions/core/use-cases/memories';
import { createSession } from '../../functions/core/use-cases/sessions';
import { createMessage } from '../../functions/core/use-cases/messages';
import { addSessions } from '../../functions/core/use-cases/conversations';

// convergence is the property, not ranking: no word vectors to load (seconds) in this process
const deps = testDeps(testConfig({ KMEM_WORK_MAX_ATTEMPTS: '3', KMEM_EMBEDDER: 'none', KMEM_GRAPH_WORD_VECTORS: 'false' }));
const queue = deps.localQueue;
let accountId: string;

beforeAll(async () => {
  accountId = (await createAccount(deps, `sync-${process.pid}-${Date.now()}`)).account.id;
});
afterAll(() => deps.documentClient.destroy());

async function indexed(memoryId: string): Promise<string[]> {
  const memory = await deps.memories.get(accountId, memoryId);
  if (!memory?.indexPrefix) return [];
  const chunks = await publishedChunks(deps.objects, memory);
  return chunks.flatMap((chunk) => (chunk.message ? [chunk.text] : [])).sort();
}

/** A memory with two attached sessions, built (empty) and nothing queued. */
async function conversationMemory() {
  const memory = await createMemory(deps, accountId, { name: 'chat', memoryType: 'vector' });
  const [first, second] = [await createSession(deps, accountId, {}), await createSession(deps, accountId, {})];
  await addSessions(deps, accountId, memory.id, [first.id, second.id]);
  await drainQueue(deps);
  return { memoryId: memory.id, first: first.id, second: second.id };
}

async function say(sessionId: string, content: string): Promise<void> {
  await createMessage(deps, accountId, { sessionId, role: 'user', content });
}

/** Takes the queued memory sync off the queue, as a consumer that then loses it would (the rest stays queued). */
async function takeQueued(): Promise<{ work: WorkMessage; id: string }> {
  const received = await queue.receive(10, 0);
  const message = received.find((m) => m.body.includes('memory.sync-session'));
  if (!message) throw new Error('no memory sync queued');
  await queue.delete(message.receiptHandle);
  return { work: JSON.parse(message.body) as WorkMessage, id: message.messageId };
}

describe('conversation sync', () => {
  it('converges at the next change after a sync was given up on its last try', async () => {
    const { memoryId, first, second } = await conversationMemory();
    await say(first, 'The spare key is under the blue flowerpot.');
    const dropped = await takeQueued();
    // its last try runs where the object store cannot be reached: the build fails and the work is given up
    const broken = composeWorkerDeps(composeLocalDeps({ ...deps.config, s3Endpoint: `http://127.0.0.1:${await unusedPort()}` }));
    await runWork(broken, dropped.work, { attempt: 3, workId: dropped.id });
    expect(await indexed(memoryId)).toEqual([]);

    await say(second, 'Dinner is at eight on Friday.'); // a change to another session of the memory
    await drainQueue(deps);
    expect(await indexed(memoryId)).toEqual(['Dinner is at eight on Friday.', 'The spare key is under the blue flowerpot.']);
  });

  it('finishes what a crashed build held: by its own redelivered message, or by any change once its lease expired', async () => {
    const { memoryId, first, second } = await conversationMemory();
    const now = Date.now();
    await deps.conversationSync.acquire(accountId, memoryId, 'crashed-build', now, now + SYNC_LEASE_MS);
    await say(first, 'The boiler was serviced in March.');
    const change = await takeQueued();
    await runWork(deps.worker, change.work, { attempt: 1, workId: change.id });
    expect(await indexed(memoryId)).toEqual([]); // the lease is held: the change waits for that build
    await runWork(deps.worker, change.work, { attempt: 2, workId: 'crashed-build' }); // its message comes back
    expect(await indexed(memoryId)).toEqual(['The boiler was serviced in March.']);

    await deps.conversationSync.acquire(accountId, memoryId, 'crashed-again', now, now + 1);
    await say(second, 'The plumber comes on Tuesday.');
    await new Promise((resolve) => setTimeout(resolve, 5));
    await drainQueue(deps); // the lease expired: this change's message takes it
    expect(await indexed(memoryId)).toEqual(['The boiler was serviced in March.', 'The plumber comes on Tuesday.']);
  });
});

async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}
