/** Runs one scenario with autocannon: a discarded warm-up, then the measured run. */
import autocannon, { type Result } from 'autocannon';
import type { Scenario } from './scenarios';

export interface RunSettings {
  url: string;
  apiKey: string;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  /** Stops the run in progress (Ctrl-C); the scenario then reports what it measured so far. */
  signal?: AbortSignal;
  /** The server process's CPU time so far in ms, when it can be read. */
  serverCpuMs?: () => number | undefined;
}

export interface Measurement {
  scenario: Scenario;
  result: Result;
  /** Server CPU per completed request in ms: a cost that, unlike req/s, holds up on a busy machine. */
  serverCpuMsPerRequest?: number;
  /** Server CPU over wall time of the measured run (1 = one core busy). */
  serverCpuShare?: number;
}

export async function measure(scenario: Scenario, settings: RunSettings): Promise<Measurement> {
  if (settings.warmupSeconds > 0) await fire(scenario, settings, settings.warmupSeconds);
  const cpuBefore = settings.serverCpuMs?.();
  const started = performance.now();
  const result = await fire(scenario, settings, settings.durationSeconds);
  const cpuAfter = settings.serverCpuMs?.();
  if (cpuBefore === undefined || cpuAfter === undefined || result.requests.total === 0) return { scenario, result };
  const cpu = cpuAfter - cpuBefore;
  return {
    scenario,
    result,
    serverCpuMsPerRequest: cpu / result.requests.total,
    serverCpuShare: cpu / (performance.now() - started),
  };
}

function fire(scenario: Scenario, settings: RunSettings, durationSeconds: number): Promise<Result> {
  const instance = autocannon({
    url: settings.url,
    title: scenario.name,
    connections: settings.connections,
    duration: durationSeconds,
    headers: { 'X-API-Key': settings.apiKey },
    requests: [scenario.request()],
  });
  const stop = () => instance.stop();
  if (settings.signal?.aborted) stop();
  settings.signal?.addEventListener('abort', stop, { once: true });
  return Promise.resolve(instance).finally(() => settings.signal?.removeEventListener('abort', stop));
}
