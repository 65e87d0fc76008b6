/**
 * Extraction in a thread of its own, so a runaway file cannot take the worker (or, locally, the whole
 * service) down with it: the thread has a heap limit (worker_threads resourceLimits) and each file a time
 * limit. A file that exhausts either fails with a reason and is not retried; the thread is replaced for
 * the next file. Files go through one at a time, so a death is always the fault of the file being read.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type Extracted, ExtractionError, type ExtractInput } from '../extract';
import type { Config } from '../../config';
import { BUNDLED_EXTRACTION_THREAD, type SandboxData, type SandboxReply, type SandboxRequest } from './protocol';

/** The entry of TypeScript threads, and the module this one runs. */
export const THREAD_ENTRY = new URL('./thread-entry.mjs', import.meta.url);
const THREAD_MODULE = new URL('./thread.ts', import.meta.url).href;
/** In a deployed bundle, the thread bundled beside it (then `import.meta.url` is the bundle's). */
const BUNDLED_THREAD = new URL(`./${BUNDLED_EXTRACTION_THREAD}`, import.meta.url);

/** What a new thread runs: the bundled thread when there is one, else the TypeScript module through its entry. */
function threadEntry(): URL {
  return existsSync(fileURLToPath(BUNDLED_THREAD)) ? BUNDLED_THREAD : THREAD_ENTRY;
}

/** The process's environment, less a second copy of the AWS SDK's Node version notice (the process gives it). */
export function quietThreadEnv(): NodeJS.ProcessEnv {
  return { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
}

export interface SandboxSettings {
  /** Heap of the thread (V8 old generation), in MB. */
  memoryMb: number;
  /** Longest one file may take. */
  timeoutMs: number;
  /** The settings the thread makes its OCR and speech engines from. */
  config: Config;
}

interface Running {
  id: number;
  resolve: (extracted: Extracted) => void;
  reject: (error: Error) => void;
}

export class ExtractionSandbox {
  private thread: Worker | undefined;
  private ready: Promise<Worker> | undefined;
  private running: Running | undefined;
  private turn: Promise<unknown> = Promise.resolve();
  private nextId = 0;

  constructor(private readonly settings: SandboxSettings) {}

  /** Extracts `input` in the thread, after the files queued before it. Throws an ExtractionError. */
  extract(input: ExtractInput): Promise<Extracted> {
    const result = this.turn.then(() => this.runOne(input));
    this.turn = result.catch(() => undefined);
    return result;
  }

  /** Releases the thread's engines and stops it; a later extract starts a new one. */
  async close(): Promise<void> {
    await this.turn;
    const thread = this.thread;
    if (!thread) return;
    this.forget(thread);
    const closed = new Promise<void>((resolve) => {
      thread.on('message', (reply: SandboxReply) => reply.kind === 'closed' && resolve());
      thread.once('exit', () => resolve());
    });
    thread.postMessage({ kind: 'close' } satisfies SandboxRequest);
    await Promise.race([closed, delay(5_000)]);
    await thread.terminate();
  }

  private async runOne(input: ExtractInput): Promise<Extracted> {
    const thread = await this.start();
    const id = ++this.nextId;
    return new Promise<Extracted>((resolve, reject) => {
      const timer = setTimeout(() => {
        const limit = seconds(this.settings.timeoutMs);
        const reason = `extracting the file took longer than ${limit}, the limit: it was stopped`;
        this.stop(thread, new ExtractionError(reason, { refused: true }));
      }, this.settings.timeoutMs);
      const settle =
        <T>(done: (value: T) => void) =>
        (value: T): void => {
          clearTimeout(timer);
          this.running = undefined;
          done(value);
        };
      this.running = { id, resolve: settle(resolve), reject: settle(reject) };
      const bytes = input.bytes.slice();
      thread.postMessage({ kind: 'extract', id, input: { ...input, bytes } } satisfies SandboxRequest, [bytes.buffer]);
    });
  }

  private start(): Promise<Worker> {
    this.ready ??= new Promise<Worker>((resolve, reject) => {
      const thread = new Worker(threadEntry(), {
        workerData: { module: THREAD_MODULE, config: this.settings.config } satisfies SandboxData,
        resourceLimits: { maxOldGenerationSizeMb: this.settings.memoryMb },
        env: quietThreadEnv(),
      });
      this.thread = thread;
      thread.on('message', (reply: SandboxReply) => (reply.kind === 'ready' ? resolve(thread) : this.answer(reply)));
      thread.on('error', (error) => {
        reject(error);
        this.stop(thread, threadDeath(error, this.settings.memoryMb));
      });
      thread.on('exit', () => {
        reject(new Error('the extraction thread stopped while starting'));
        this.stop(thread, threadDeath(undefined, this.settings.memoryMb));
      });
    });
    return this.ready;
  }

  /** Fails the file in the thread with `error` and ends the thread; a later file gets a new one. */
  private stop(thread: Worker, error: ExtractionError): void {
    if (this.thread !== thread) return; // already replaced: its end says nothing about the current file
    this.forget(thread);
    this.running?.reject(error);
    void thread.terminate();
  }

  private answer(reply: SandboxReply): void {
    const running = this.running;
    if (!running || !('id' in reply) || reply.id !== running.id) return;
    if (reply.kind === 'extracted') running.resolve(reply.extracted);
    else if (reply.kind === 'failed') {
      running.reject(new ExtractionError(reply.message, { retryable: reply.retryable, refused: reply.refused }));
    }
  }

  private forget(thread: Worker): void {
    if (this.thread !== thread) return;
    this.thread = undefined;
    this.ready = undefined;
  }
}

/** Why the thread died under a file: its memory limit, or something that killed it outright. */
function threadDeath(error: unknown, memoryMb: number): ExtractionError {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  if (code === 'ERR_WORKER_OUT_OF_MEMORY' || /out of memory|heap/i.test(String(error))) {
    return new ExtractionError(`extracting the file needed more than ${memoryMb} MB of memory, the limit: it was stopped`, {
      cause: error,
      refused: true,
    });
  }
  const detail = error instanceof Error ? `: ${error.message}` : '';
  return new ExtractionError(`extracting the file stopped the extraction thread${detail}`, { cause: error });
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
