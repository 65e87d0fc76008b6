/**
 * Runs everything a test container's private queue holds through the worker (`runWork`, first try),
 * waiting out delayed messages, until the queue is empty. A failing message fails the test.
 */
import type { MemoryQueue } from '../../functions/adapters/memory/queue';
import { runWork } from '../../functions/worker/dispatch';
import type { MemoryTestDeps } from './memory';
import type { TestDeps } from './stores';

/** Deps over the test runtime's stores (their private file queue), or over memory (the memory queue). */
export async function drainQueue(deps: TestDeps | MemoryTestDeps): Promise<void> {
  const queue: Pick<MemoryQueue, 'receive' | 'depth' | 'delete'> = 'localQueue' in deps ? deps.localQueue : deps.queue;
  for (let i = 0; i < 200; i++) {
    const received = await queue.receive(10, 30);
    if (received.length === 0) {
      const depth = await queue.depth();
      if (depth.delayed + depth.inFlight === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    for (const message of received) {
      await runWork(deps.worker, JSON.parse(message.body), { attempt: 1, workId: message.messageId });
      await queue.delete(message.receiptHandle);
    }
  }
  throw new Error('the queue did not empty');
}
