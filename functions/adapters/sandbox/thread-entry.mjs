/**
 * Entry of the threads that run TypeScript modules (the extraction sandbox, the local worker thread):
 * `workerData.module` names the module to run. Plain JavaScript, because Node loads a worker thread's
 * entry itself, without the TypeScript loader the parent may run under; the loader is registered here.
 */
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
