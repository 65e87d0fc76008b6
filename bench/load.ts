/**
 * Load benchmark of the local runtime (dynalite + s3rver + the API handlers behind the local router).
 *
 *   npm run bench:load -- --duration 10
 *
 * Options: --duration S (default 10) and --warmup S (default 2) per scenario, --connections N (default
 * 10), --only TEXT (run the scenarios whose name contains TEXT), --cpu-prof DIR (CPU-profile the server).
 *
 * The runtime runs in a child process (bench/support/serve.ts) with a fresh temp data dir, so autocannon
 * does not share its event loop; the data is seeded over HTTP (200 users, 20 sessions × 50 messages),
 * then each scenario gets a discarded warm-up and a measured run. Prints a markdown report, including
 * the server process's CPU time per request (read from /proc on Linux); the read scenarios are checked
 * against ≥ 500 req/s and p99 < 30 ms, the writes are reported only. Exits 0 whatever the numbers;
 * non-zero only when the harness itself fails.
 */
import { setTimeout } from 'node:timers/promises';
import { apiClient } from './support/api';
import { type LoadOptions, parseLoadOptions } from './support/args';
import { commandLine, machineFacts, resultsTable, statusNotes } from './support/report';
import { type Measurement, measure, type RunSettings } from './support/runner';
import { scenarios } from './support/scenarios';
import { DEFAULT_SEED, seed } from './support/seed';
import { startServerProcess } from './support/server-process';

const IN_FLIGHT_GRACE_MS = 1000;

async function main(options: LoadOptions): Promise<void> {
  const interrupt = abortOnSigint();
  const server = await startServerProcess({ cpuProfileDir: options.cpuProfileDir });
  try {
    const { url, apiKey, pid } = server.info;
    progress(`server pid ${pid} at ${url}, data in ${server.dataDir}; seeding…`);
    const seeded = await seed(apiClient(url, apiKey), DEFAULT_SEED);
    progress(
      `seeded ${seeded.userIds.length} users, ${seeded.sessionIds.length} sessions, ${seeded.messages} messages in ${(seeded.ms / 1000).toFixed(1)} s`,
    );
    const settings: RunSettings = { url, apiKey, ...options, signal: interrupt.signal, serverCpuMs: server.cpuMs };
    const selected = scenarios(seeded, Date.now().toString(36)).filter((s) => !options.only || s.name.includes(options.only));
    const measurements: Measurement[] = [];
    for (const scenario of selected) {
      if (interrupt.signal.aborted) break;
      progress(`running '${scenario.name}' (${options.warmupSeconds} s warm-up + ${options.durationSeconds} s)…`);
      measurements.push(await measure(scenario, settings));
    }
    printReport(options, measurements);
  } finally {
    await setTimeout(IN_FLIGHT_GRACE_MS); // autocannon drops its sockets at the end; let the server finish those requests
    await server.stop();
    if (options.cpuProfileDir) progress(`server CPU profile written to ${options.cpuProfileDir}`);
  }
}

function printReport(options: LoadOptions, measurements: Measurement[]): void {
  const notes = statusNotes(measurements);
  const lines = [
    '## kmem local runtime load benchmark',
    '',
    ...machineFacts(),
    `- command: \`${commandLine()}\``,
    `- ${options.connections} connections, ${options.durationSeconds} s per scenario after a ${options.warmupSeconds} s warm-up; server in its own process`,
    `- seed: ${DEFAULT_SEED.users} users, ${DEFAULT_SEED.sessions} sessions × ${DEFAULT_SEED.messagesPerSession} messages`,
    '',
    ...resultsTable(measurements),
    '',
    'server CPU: user + system time of the server process (all its threads) per completed request, and over the run (100% = one core).',
    ...(notes.length > 0 ? ['', 'Non-2xx answers:', ...notes] : []),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Ctrl-C stops the scenario in progress and skips the rest (after seeding, if it comes during it); the report covers what ran. */
function abortOnSigint(): AbortController {
  const controller = new AbortController();
  process.once('SIGINT', () => {
    progress('interrupted: stopping');
    controller.abort();
  });
  return controller;
}

function progress(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}

Promise.resolve()
  .then(() => main(parseLoadOptions()))
  .catch((error: unknown) => {
    process.stderr.write(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
