/** The benchmark's printed report: machine facts, the command, and one markdown row per scenario. */
import { cpus, platform, release, totalmem } from 'node:os';
import type { Result } from 'autocannon';
import type { Measurement } from './runner';
import type { Targets } from './scenarios';

export function machineFacts(): string[] {
  const cpu = cpus();
  return [
    `- cpus: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown'}`,
    `- node: ${process.version} (${platform()} ${release()})`,
    `- memory: ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
  ];
}

/** How this run was started (the npm script form when run through `npm run bench:load`). */
export function commandLine(argv: readonly string[] = process.argv.slice(2)): string {
  const args = argv.map((arg) => (/^[\w./:=@-]+$/.test(arg) ? arg : JSON.stringify(arg))).join(' ');
  if (process.env.npm_lifecycle_event === 'bench:load') return `npm run bench:load${args ? ` -- ${args}` : ''}`;
  return `tsx bench/load.ts${args ? ` ${args}` : ''}`;
}

export function resultsTable(measurements: readonly Measurement[]): string[] {
  return [
    '| scenario | req/s (mean) | p50 ms | p99 ms | errors (non-2xx) | server CPU ms/req (busy) | target |',
    '|---|---:|---:|---:|---:|---:|---|',
    ...measurements.map(row),
  ];
}

function row(measurement: Measurement): string {
  const { scenario, result } = measurement;
  const cells = [
    scenario.name,
    result.requests.average.toFixed(0),
    result.latency.p50.toFixed(1),
    result.latency.p99.toFixed(1),
    errors(result),
    serverCpu(measurement),
    verdict(result, scenario.targets),
  ];
  return `| ${cells.join(' | ')} |`;
}

function serverCpu({ serverCpuMsPerRequest, serverCpuShare }: Measurement): string {
  if (serverCpuMsPerRequest === undefined || serverCpuShare === undefined) return 'n/a';
  return `${serverCpuMsPerRequest.toFixed(2)} (${(100 * serverCpuShare).toFixed(0)}%)`;
}

/** Non-2xx answers, plus socket errors and timeouts when there were any. */
function errors(result: Result): string {
  const socket = result.errors + result.timeouts;
  return socket > 0 ? `${result.non2xx} (+${socket} socket)` : String(result.non2xx);
}

function meetsTargets(result: Result, targets: Targets): boolean {
  return (
    result.requests.average >= targets.minRequestsPerSecond &&
    result.latency.p99 < targets.maxP99Ms &&
    result.non2xx + result.errors + result.timeouts === 0
  );
}

function verdict(result: Result, targets: Targets | undefined): string {
  if (!targets) return 'report only';
  const wanted = `≥ ${targets.minRequestsPerSecond} req/s, p99 < ${targets.maxP99Ms} ms, 0 errors`;
  return `${meetsTargets(result, targets) ? 'PASS' : 'FAIL'} (${wanted})`;
}

/** Status codes other than 2xx, for a footnote under the table. */
export function statusNotes(measurements: readonly Measurement[]): string[] {
  return measurements.flatMap(({ scenario, result }) => {
    const odd = Object.entries(result.statusCodeStats).filter(([code]) => !code.startsWith('2'));
    return odd.length === 0 ? [] : [`- ${scenario.name}: ${odd.map(([code, s]) => `${s.count}× ${code}`).join(', ')}`];
  });
}
