/**
 * The local worker thread: the worker handler with deps of its own, composed from the runtime's settings
 * (given as the thread's data), so extraction, indexing and graph building run beside the API's event
 * loop instead of on it. The queue stays with the runtime (it owns the queue directory); messages the
 * worker queues are handed to the runtime, which stores them.
 */
import '../local-env';
import { parentPort, workerData } from 'node:worker_threads';
import { createContainer, type WorkQueue } from '../../adapters/container';
import { addMetricSink } from '../../core/metrics';
import { composeWorkerDeps, releaseWorkerDeps } from '../../worker/deps';
import { createWorkerHandler } from '../../worker/handler';
import { lambdaContext } from '../lambda-context';
import type { HostMessage, ThreadData, ThreadMessage } from './protocol';

const port = parentPort;
if (!port) throw new Error('the local worker thread runs as a worker thread');
const post = (message: ThreadMessage): void => port.postMessage(message);

/** The runtime's queue, reached through the thread's port: each call resolves once the runtime applied it. */
const pendingCalls = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
let nextCall = 0;
function callRuntimeQueue(message: DistributiveOmit<Extract<ThreadMessage, { kind: 'send' | 'retry' }>, 'id'>): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const id = ++nextCall;
    pendingCalls.set(id, { resolve, reject });
    post({ ...message, id });
  });
}
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

const runtimeQueue: WorkQueue = {
  send: (body, options) => callRuntimeQueue({ kind: 'send', body, ...(options ? { options } : {}) }),
  retryIn: (receiptHandle, seconds) => callRuntimeQueue({ kind: 'retry', receiptHandle, seconds }),
};

const { config } = workerData as ThreadData;
const deps = composeWorkerDeps(createContainer(config, runtimeQueue));
const handler = createWorkerHandler(() => deps);
// the worker's metrics reach the runtime's summary (GET /metrics)
addMetricSink({ record: (point) => post({ kind: 'metric', point }) });

port.on('message', (message: HostMessage) => {
  if (message.kind === 'sent') {
    const pending = pendingCalls.get(message.id);
    pendingCalls.delete(message.id);
    if (message.error === undefined) pending?.resolve();
    else pending?.reject(new Error(message.error));
  } else if (message.kind === 'invoke') {
    const { id, event, functionName, requestId, timeoutMs } = message;
    handler(event, lambdaContext(functionName, requestId, timeoutMs)).then(
      (response) => post({ kind: 'answered', id, response: response ?? undefined }),
      (error: unknown) => post({ kind: 'answered', id, response: undefined, error: describe(error) }),
    );
  } else {
    void releaseWorkerDeps(deps).finally(() => post({ kind: 'closed' }));
  }
});
post({ kind: 'ready' });

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
