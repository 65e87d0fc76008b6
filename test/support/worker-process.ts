/**
 * A worker in its own process, for tests that kill one halfway: it pumps the queue directory given in
 * the environment (KMEM_LOCAL_QUEUE_DIR) into the real worker handler until it is killed.
 */
import { container } from '../../functions/adapters/container';
import { QueuePump } from '../../functions/local/queue-pump';
import { handler } from '../../functions/worker/handler';

const queue = container().localQueue;
if (!queue) throw new Error('the worker process needs the local queue');
new QueuePump({ queue, handler, log: (line) => process.stderr.write(`${line}\n`) }).start();
process.stdout.write('ready\n');
