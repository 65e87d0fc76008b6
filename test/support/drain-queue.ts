/**
 * Runs everything a test container's private queue holds through the worker (`runWork`, first try),
 * waiting out delayed messages, until the queue is empty. A failing message fails the test.
 */
import { runWork } from '../../functions/worker/dispatch';
import type { TestDeps } from './stores';

export async function drainQueue(deps: TestDeps): Promise<void> {
  const queue = deps.localQueue;
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
