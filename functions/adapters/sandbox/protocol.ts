/** The messages between the worker and its extraction thread (functions/adapters/sandbox). */
import type { Extracted, ExtractInput } from '../extract';
import type { Config } from '../../config';

/**
 * The thread's module bundled beside a deployed worker's bundle (the worker's afterBundling step builds
 * functions/adapters/sandbox/thread.ts to it); from the sources the thread runs ./thread.ts through tsx.
 */
export const BUNDLED_EXTRACTION_THREAD = 'extraction-thread.mjs';

/** What the thread starts with: its module, and the settings it makes its engines from. */
export interface SandboxData {
  module: string;
  config: Config;
}

/** Parent to thread: extract one file, or release the engines and stop. */
export type SandboxRequest = { kind: 'extract'; id: number; input: ExtractInput } | { kind: 'close' };

/** Thread to parent: the thread is up, a file's outcome, or closed. */
export type SandboxReply =
  | { kind: 'ready' }
  | { kind: 'extracted'; id: number; extracted: Extracted }
  | { kind: 'failed'; id: number; message: string; retryable: boolean; refused: boolean }
  | { kind: 'closed' };
