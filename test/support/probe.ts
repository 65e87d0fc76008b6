/**
 * A client that reads some paths of a runtime every 100 ms while a test loads it, timing each request:
 * how an API user sees the service while the worker is busy. It reads from a thread of its own.
 */
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

export interface ProbeReading {
  path: string;
  status: number;
  ms: number;
  /** When the request started, in ms since the probe's thread started. */
  at: number;
}

export interface Probe {
  /** Stops reading; answers every reading taken. */
  stop(): Promise<ProbeReading[]>;
}

export function startProbe(baseUrl: string, paths: string[], key: string, intervalMs = 100): Probe {
  const thread = new Worker(new URL('./probe-thread.mjs', import.meta.url), { workerData: { baseUrl, paths, key, intervalMs } });
  const done = once(thread, 'message') as Promise<[ProbeReading[]]>;
  return {
    stop: async () => {
      thread.postMessage('stop');
      const [readings] = await done;
      await thread.terminate();
      return readings;
    },
  };
}

/** The reading at the given percentile (0 to 100) of `readings`' durations. */
export function percentile(readings: ProbeReading[], p: number): number {
  const sorted = readings.map((reading) => reading.ms).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}
