/**
 * The runtime's side of the local worker thread: an SQS handler for the queue pumps that runs each batch
 * in the thread, and stores what the thread queues. The pumps and the queue stay on the runtime's thread
 * (cheap file I/O); the worker's CPU (extraction, indexing, graphs) no longer holds the API's event loop.
 * A thread that dies is replaced at the next batch; the batches it held are retried as after a crash.
 */
import { getHeapStatistics } from 'node:v8';
import { Worker } from 'node:worker_threads';
import type { SQSBatchResponse } from 'aws-lambda';
import type { LocalQueue } from '../../adapters/queue/local-queue';
import type { Config } from '../../config';
import { quietThreadEnv, THREAD_ENTRY } from '../../adapters/sandbox/extraction-sandbox';
import type { SqsLambdaHandler } from '../queue-pump';
import type { HostMessage, ThreadData, ThreadMessage } from './protocol';
import { emitMetric } from '../../core/metrics';

const THREAD_MODULE = new URL('./thread.ts', import.meta.url).href;
const LOCAL_PREFIX = 'kmem-local-';

interface Invocation {
  resolve: (response: SQSBatchResponse | undefined) => void;
  reject: (error: Error) => void;
}

export class WorkerThreadHost {
  private thread: Worker | undefined;
  private ready: Promise<Worker> | undefined;
  /** The thread has loaded its modules (and may hold OCR workers to release). */
  private loaded = false;
  private readonly invocations = new Map<number, Invocation>();
  private nextId = 0;

  /** `config`: the runtime's settings, from which the thread composes its own deps. */
  constructor(
    private readonly queue: LocalQueue,
    private readonly config: Config,
    private readonly log: (line: string) => void,
  ) {}

  /** The worker handler, run in the thread. */
  readonly handler: SqsLambdaHandler = async (event, context) => {
    const thread = await this.start();
    const id = ++this.nextId;
    const functionName = context.functionName.startsWith(LOCAL_PREFIX)
      ? context.functionName.slice(LOCAL_PREFIX.length)
      : context.functionName;
    const invoke: HostMessage = {
      kind: 'invoke',
      id,
      event,
      functionName,
      requestId: context.awsRequestId,
      timeoutMs: context.getRemainingTimeInMillis(),
    };
    return new Promise<SQSBatchResponse | undefined>((resolve, reject) => {
      this.invocations.set(id, { resolve, reject });
      thread.postMessage(invoke);
    });
  };

  /** Starts the thread now (the runtime does, so the first batch does not wait for it). */
  async start(): Promise<Worker> {
    this.ready ??= this.spawn();
    return this.ready;
  }

  /** Lets the thread release what it holds (OCR workers), then ends it. Call after the pumps stopped. */
  async stop(): Promise<void> {
    const thread = this.thread;
    if (!thread) return;
    this.thread = undefined;
    this.ready = undefined;
    const loaded = this.loaded;
    this.loaded = false;
    if (!loaded) {
      await thread.terminate(); // still loading its modules: nothing to release
      return;
    }
    const closed = new Promise<void>((resolve) => {
      thread.on('message', (message: ThreadMessage) => message.kind === 'closed' && resolve());
      thread.once('exit', () => resolve());
    });
    thread.postMessage({ kind: 'close' } satisfies HostMessage);
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
    await thread.terminate();
  }

  private spawn(): Promise<Worker> {
    return new Promise<Worker>((resolve, reject) => {
      const heapMb = Math.round(getHeapStatistics().heap_size_limit / (1024 * 1024));
      const thread = new Worker(THREAD_ENTRY, {
        workerData: { module: THREAD_MODULE, config: this.config } satisfies ThreadData,
        env: quietThreadEnv(),
        resourceLimits: { maxOldGenerationSizeMb: heapMb },
      });
      this.thread = thread;
      thread.on('message', (message: ThreadMessage) => {
        if (message.kind === 'ready') {
          this.loaded = true;
          resolve(thread);
        } else this.receive(thread, message);
      });
      thread.on('error', (error) => {
        reject(error);
        this.lost(thread, `failed: ${error.message}`);
      });
      thread.on('exit', (code) => {
        reject(new Error(`the worker thread stopped while starting (exit code ${code})`));
        this.lost(thread, `stopped (exit code ${code})`);
      });
    });
  }

  private receive(thread: Worker, message: ThreadMessage): void {
    if (message.kind === 'metric') {
      emitMetric(message.point.name, message.point.value, {
        ...(message.point.dimension === undefined ? {} : { dimension: message.point.dimension }),
        ...(message.point.properties ? { properties: message.point.properties } : {}),
      });
    } else if (message.kind === 'answered') {
      const invocation = this.invocations.get(message.id);
      this.invocations.delete(message.id);
      if (message.error === undefined) invocation?.resolve(message.response);
      else invocation?.reject(new Error(message.error));
    } else if (message.kind === 'send' || message.kind === 'retry') {
      const applied =
        message.kind === 'send'
          ? this.queue.send(message.body, message.options)
          : this.queue.retryIn(message.receiptHandle, message.seconds);
      applied.then(
        () => thread.postMessage({ kind: 'sent', id: message.id } satisfies HostMessage),
        (error: unknown) => thread.postMessage({ kind: 'sent', id: message.id, error: String(error) } satisfies HostMessage),
      );
    }
  }

  /** The thread is gone: the batches it held fail (the queue retries them) and the next batch starts a new one. */
  private lost(thread: Worker, why: string): void {
    if (this.thread !== thread) return;
    this.thread = undefined;
    this.ready = undefined;
    this.loaded = false;
    const held = [...this.invocations.values()];
    this.invocations.clear();
    this.log(`worker thread ${why}; ${held.length} batch(es) it held will be retried, a new thread takes the next`);
    for (const invocation of held) invocation.reject(new Error(`the worker thread ${why}`));
  }
}
