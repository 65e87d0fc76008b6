/**
 * How long the local worker thread takes to start: from `new Worker` to its 'ready' (its modules loaded and
 * its deps composed, functions/local/worker-thread/thread.ts), and the process's CPU meanwhile (the main
 * thread only waits, so that is the thread's). Every local runtime (`npm start`, each e2e test file that
 * starts one) pays it once.
 *
 *   npx tsx bench/worker-start.ts [starts=5]
 *
 * Prints one line per start and the median, with the load average at the end (compare runs at the same load).
 */
import { loadavg } from 'node:os';
import { localConfig } from '../functions/config';
import { composeLocalDeps } from '../functions/local/compose';
import { WorkerThreadHost } from '../functions/local/worker-thread/host';

const starts = Number(process.argv[2] ?? 5);
const deps = composeLocalDeps(localConfig());
const queue = deps.localQueue;
if (!queue) throw new Error('the local deps have no local queue');

const rows: Array<{ ms: number; cpuMs: number }> = [];
for (let i = 0; i < starts; i++) {
  const host = new WorkerThreadHost(queue, deps.config, () => {});
  const cpu = process.cpuUsage();
  const started = performance.now();
  await host.start();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  await host.stop();
  rows.push({ ms, cpuMs: (used.user + used.system) / 1000 });
  console.log(`start ${i + 1}: ${ms.toFixed(0)} ms to ready, ${rows.at(-1)?.cpuMs.toFixed(0)} ms CPU`);
}
const median = (values: number[]): number => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
console.log(
  `median of ${starts}: ${median(rows.map((row) => row.ms)).toFixed(0)} ms to ready, ${median(rows.map((row) => row.cpuMs)).toFixed(0)} ms CPU; load ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}`,
);
