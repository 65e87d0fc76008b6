/**
 * A worker in its own process, for tests that kill one halfway: it pumps the queue directory given in
 * the environment (KMEM_LOCAL_QUEUE_DIR) into the real worker handler until it is killed.
 */
import { localConfig } from '../../functions/config';
import { composeLocalDeps } from '../../functions/local/compose';
import { QueuePump } from '../../functions/local/queue-pump';
import { composeWorkerDeps } from '../../functions/worker/deps';
import { createWorkerHandler } from '../../functions/worker/handler';

const deps = composeLocalDeps(localConfig());
const worker = composeWorkerDeps(deps);
const handler = createWorkerHandler(() => worker);
new QueuePump({ queue: deps.localQueue, handler, log: (line) => process.stderr.write(`${line}\n`) }).start();
process.stdout.write('ready\n');
