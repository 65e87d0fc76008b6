/**
 * Entry of the extraction thread. Plain JavaScript, because Node loads a worker thread's entry itself:
 * when the parent runs without the TypeScript loader (vitest, or a process started with plain node), the
 * loader is registered here first; under `tsx` the thread inherits it.
 */
import { register } from 'tsx/esm/api';

register();
await import('./thread.ts');
