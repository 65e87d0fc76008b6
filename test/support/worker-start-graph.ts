/**
 * The worker as the local worker thread composes it (functions/local/worker-thread/thread.ts), in a process
 * of its own run with loaded-packages.mjs: prints, as one JSON line, the npm packages loaded once the worker
 * is ready (`atReady`) and after its web fetcher's first call (`afterFetch`).
 */
import { localConfig } from '../../functions/config';
import { composeLocalDeps } from '../../functions/local/compose';
import { composeWorkerDeps } from '../../functions/worker/deps';
import { createWorkerHandler } from '../../functions/worker/handler';

const loadedPackages = (globalThis as unknown as { loadedPackages: () => Promise<string[]> }).loadedPackages;
const worker = composeWorkerDeps(composeLocalDeps(localConfig()));
createWorkerHandler(() => worker);
const atReady = await loadedPackages();
// nothing listens on port 9 of this machine: the call fails, after loading the web reader
const fetchError = await worker.fetcher.fetch('http://127.0.0.1:9/page').then(
  () => 'none',
  (error: unknown) => (error instanceof Error ? error.name : String(error)),
);
const afterFetch = await loadedPackages();
await worker.extractor.close();
process.stdout.write(`${JSON.stringify({ atReady, afterFetch, fetchError })}\n`);
