/**
 * A client that reads some paths of the runtime every 100 ms while a test loads it, timing each
 * request: how an API user sees the service while the worker is busy.
 */
import { env } from './api';

export interface ProbeReading {
  path: string;
  status: number;
  ms: number;
}

export interface Probe {
  /** Stops reading; answers every reading taken. */
  stop(): Promise<ProbeReading[]>;
}

export function startProbe(paths: string[], key: string, intervalMs = 100): Probe {
  const readings: ProbeReading[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      for (const path of paths) {
        const started = performance.now();
        let status = 0;
        try {
          const response = await fetch(`${env().url}${path}`, { headers: { 'X-API-Key': key }, signal: AbortSignal.timeout(10_000) });
          await response.arrayBuffer();
          status = response.status;
        } catch {
          status = 0; // no answer within 10 s, or none at all
        }
        readings.push({ path, status, ms: performance.now() - started });
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return readings;
    },
  };
}

/** The reading at the given percentile (0 to 100) of `readings`' durations. */
export function percentile(readings: ProbeReading[], p: number): number {
  const sorted = readings.map((reading) => reading.ms).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}
