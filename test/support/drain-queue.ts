/**
 * Runs everything a test container's private queue holds through the worker (`runWork`, first try),
 * waiting out delayed messages, until the queue is empty. A failing message fails the test.
 */
import type { Container } from '../../functions/adapters/container';

export async function drainQueue(deps: Container): Promise<void> {
  // loaded at call time: the worker's modules read the environment the test sets before it
  const { workerDeps } = await import('../../functions/worker/deps');
  const { runWork } = await import('../../functions/worker/dispatch');
  const queue = deps.localQueue;
  if (!queue) throw new Error('no local queue');
  for (let i = 0; i < 200; i++) {
    const received = await queue.receive(10, 30);
    if (received.length === 0) {
      const depth = await queue.depth();
      if (depth.delayed + depth.inFlight === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    for (const message of received) {
      await runWork(workerDeps(deps), JSON.parse(message.body), { attempt: 1, workId: message.messageId });
      await queue.delete(message.receiptHandle);
    }
  }
  throw new Error('the queue did not empty');
}
