/**
 * Runs bench/support/serve.ts in a child process, so the load generator and the server do not share an
 * event loop (or a CPU, on a machine with more than one). Owns the child's temp data dir.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const READY_MARKER = 'KMEM_BENCH_READY';
/** serve.ts answers a `store-requests` line on its stdin with this marker and the counts as JSON. */
export const STORE_REQUESTS_MARKER = 'KMEM_BENCH_STORE_REQUESTS';

export interface ServerInfo {
  url: string;
  apiKey: string;
  pid: number;
  /** dynalite's endpoint inside the server process, for probes that time it without the API. */
  dynamodbEndpoint: string;
  /** s3rver's endpoint inside the server process (bulk import reads a bucket of it). */
  s3Endpoint: string;
}

export interface ServerProcess {
  info: ServerInfo;
  dataDir: string;
  /** CPU time (user + system, all threads) the child has used so far, in ms; undefined off Linux. */
  cpuMs(): number | undefined;
  /** The child's resident memory now and at its peak, in MiB (VmRSS, VmHWM); undefined off Linux. */
  residentMiB(): { now: number; peak: number } | undefined;
  /** Requests the child's local stores have served so far, by operation (`DynamoDB PutItem`, `S3 GET`, ...). */
  storeRequests(): Promise<Record<string, number>>;
  /** Stops the child (SIGTERM, then SIGKILL), removes its data dir, and summarises repeated log lines. */
  stop(): Promise<void>;
}

export interface ServerOptions {
  /** When set, the child runs with `--cpu-prof` and writes its profile here on exit. */
  cpuProfileDir?: string;
  startTimeoutMs?: number;
  /** Run on this data dir and leave it on stop (the caller owns it, e.g. to restart on the same data); default a fresh temp dir, removed on stop. */
  dataDir?: string;
}

const SERVE_SCRIPT = fileURLToPath(new URL('./serve.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export async function startServerProcess(options: ServerOptions = {}): Promise<ServerProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'kmem-bench-'));
  const child = spawn(process.execPath, [...nodeFlags(options), '--import', 'tsx', SERVE_SCRIPT, dataDir], {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const log = forwardOnce(child);
  const stop = () =>
    stopChild(child).finally(() => {
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      log.summarise();
    });
  try {
    const lines = createInterface({ input: child.stdout! });
    const info = await waitForReady(child, lines, options.startTimeoutMs ?? 60_000);
    return {
      info,
      dataDir,
      cpuMs: () => cpuMsOf(info.pid),
      residentMiB: () => residentMiBOf(info.pid),
      storeRequests: () => askStoreRequests(child, lines),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function nodeFlags(options: ServerOptions): string[] {
  return options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : [];
}

/** Reads the child's stdout until the ready line; anything else it prints goes to our stderr. */
function waitForReady(child: ChildProcess, lines: Interface, timeoutMs: number): Promise<ServerInfo> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start within ${timeoutMs} ms`)), timeoutMs);
    const fail = (why: string) => {
      clearTimeout(timer);
      reject(new Error(why));
    };
    child.once('exit', (code, signal) => fail(`server exited before it was ready (code ${code}, signal ${signal})`));
    child.once('error', (error) => fail(`could not start the server: ${error.message}`));
    lines.on('line', (line) => {
      if (line.startsWith(`${STORE_REQUESTS_MARKER} `)) return; // askStoreRequests takes these
      if (!line.startsWith(`${READY_MARKER} `)) {
        process.stderr.write(`[server] ${line}\n`);
        return;
      }
      clearTimeout(timer);
      resolve(JSON.parse(line.slice(READY_MARKER.length + 1)) as ServerInfo);
    });
  });
}

/** Asks serve.ts for its stores' request counts and reads the answer off its stdout. */
function askStoreRequests(child: ChildProcess, lines: Interface): Promise<Record<string, number>> {
  return new Promise((resolve) => {
    const onLine = (line: string) => {
      if (!line.startsWith(`${STORE_REQUESTS_MARKER} `)) return;
      lines.off('line', onLine);
      resolve(JSON.parse(line.slice(STORE_REQUESTS_MARKER.length + 1)) as Record<string, number>);
    };
    lines.on('line', onLine);
    child.stdin!.write('store-requests\n');
  });
}

/** Reads utime + stime from /proc/<pid>/stat (clock ticks of 10 ms on Linux). */
function cpuMsOf(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * 10 : undefined;
  } catch {
    return undefined;
  }
}

/** VmRSS and VmHWM from /proc/<pid>/status (kB there). */
function residentMiBOf(pid: number): { now: number; peak: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
    const now = kb('VmRSS');
    const peak = kb('VmHWM');
    return Number.isFinite(now) && Number.isFinite(peak) ? { now: now / 1024, peak: peak / 1024 } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Forwards the child's stderr to ours, each distinct line once: a line logged per request (a warning, say)
 * would otherwise drown the report. `summarise` prints how often each repeated line came.
 */
function forwardOnce(child: ChildProcess): { summarise(): void } {
  const seen = new Map<string, number>();
  createInterface({ input: child.stderr! }).on('line', (line) => {
    if (line.trim() === '') return;
    const count = (seen.get(line) ?? 0) + 1;
    seen.set(line, count);
    if (count === 1) process.stderr.write(`[server] ${line}\n`);
  });
  return {
    summarise: () => {
      for (const [line, count] of seen) {
        if (count > 1) process.stderr.write(`[server] repeated ${count}×: ${line}\n`);
      }
    },
  };
}

/** SIGTERM, then SIGKILL if the child has not exited within the grace period; resolves once its output is drained. */
function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('close', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
