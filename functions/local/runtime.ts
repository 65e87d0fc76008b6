/**
 * The local runtime: the stores (in a thread), the same handlers behind the local router, and the queue
 * feeding the worker (in a thread of its own, so its CPU never holds the API's event loop), in one
 * process. Configuration flows through the environment exactly as on Lambda: the runtime sets the store
 * endpoints there and the handlers read them through functions/config.ts.
 */
import './local-env';
import { writeFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { container, resetContainer } from '../adapters/container';
import type { LocalQueue } from '../adapters/queue/local-queue';
import { type Config, type Environment, loadConfig, resetConfig } from '../config';
import { authenticate, ensureAccountWithKey } from '../core/use-cases/accounts';
import { catalog } from '../http/catalog';
import { releaseWorkerDeps } from '../worker/deps';
import { parseWork } from '../worker/dispatch';
import { CONSOLE_DIST } from '../../lib/console-build';
import { consoleFiles } from './console-files';
import { httpHandlers } from './handlers';
import { QueuePump, type SqsLambdaHandler } from './queue-pump';
import { addMetricSink } from '../core/metrics';
import { MetricsSummary } from './metrics-summary';
import { createRouter } from './router';
import { WorkerThreadHost } from './worker-thread/host';
import { ensureTable, type LocalStores, privateDirectory, startStores } from './stores';

/** Batches the local worker handles at once (on AWS, Lambda scales the worker instead). */
const LOCAL_WORKERS = 3;
const LOCAL_KEEP_ALIVE_MS = 65_000;

export interface Runtime {
  url: string;
  /** The web console's address (`GET /console/`). */
  consoleUrl: string;
  config: Config;
  /** Requests the local stores have served, by operation (for benchmarks that count round trips). */
  storeRequests(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

export interface RuntimeOptions {
  /** Settings that override the process environment (tests use this for ports and data dirs). */
  env?: Partial<Record<keyof Environment, string>>;
  log?: (line: string) => void;
}

export async function startRuntime(options: RuntimeOptions = {}): Promise<Runtime> {
  const log = options.log ?? (() => undefined);
  Object.assign(process.env, options.env);
  const base = loadConfig();
  const dataDir = resolve(base.dataDir);
  // every tenant's data is under here: the owner's alone (directories 0700, files 0600)
  const umask = process.umask(0o077);
  privateDirectory(dataDir);

  log(`starting stores in ${dataDir}`);
  const stores = await startStoresClearly(dataDir, base);
  Object.assign(process.env, {
    KMEM_DATA_DIR: dataDir,
    KMEM_DYNAMODB_ENDPOINT: stores.dynamodbEndpoint,
    KMEM_S3_ENDPOINT: stores.s3Endpoint,
    KMEM_LOCAL_QUEUE_DIR: join(dataDir, 'queue'),
  });
  resetConfig();
  resetContainer();
  const deps = container();
  await ensureTable(deps.documentClient, deps.config.tableName);
  if (deps.config.bootstrapApiKey) {
    const account = await ensureAccountWithKey(deps, deps.config.bootstrapApiKey);
    log(`KMEM_API_KEY is a key of account '${account.name}'`);
  }

  const summary = new MetricsSummary();
  const removeSummary = addMetricSink(summary);
  const server = apiServer(deps.config, log, summary);
  const worker = deps.localQueue ? new WorkerThreadHost(deps.localQueue, log) : undefined;
  // loading the worker's modules takes seconds: the API starts meanwhile, the first batch waits for it
  worker?.start().catch((error: unknown) => log(`worker thread failed to start (the next batch tries again): ${String(error)}`));
  const pumps = await startPumps(deps.localQueue, worker?.handler, log);
  const port = await listen(server, deps.config.host, deps.config.port);
  const url = `http://${deps.config.host}:${port}`;
  const stateFile = join(dataDir, 'runtime.json');
  writeFileSync(stateFile, JSON.stringify({ pid: process.pid, url, ...endpointsOf(stores) }, null, 2), { mode: 0o600 });
  log(`kmem API listening on ${url}`);

  return {
    url,
    consoleUrl: `${url}/console/`,
    config: deps.config,
    storeRequests: () => stores.requestCounts(),
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await Promise.all(pumps.map((pump) => pump.stop()));
      await worker?.stop();
      await releaseWorkerDeps(deps);
      await stores.close();
      rmSync(stateFile, { force: true });
      removeSummary();
      process.umask(umask);
      resetContainer();
      resetConfig();
    },
  };
}

/** The same handlers behind the local router. */
function apiServer(config: Config, log: (line: string) => void, summary: MetricsSummary): Server {
  const router = createRouter({
    routes: catalog,
    handlers: httpHandlers,
    maxRequestBytes: Math.max(config.maxBodyBytes, config.maxUploadBytes) + 64 * 1024,
    authenticate: (apiKey) => authenticate(container().apiKeys, apiKey),
    onRequest: config.accessLog ? log : undefined,
    onError: (line) => process.stderr.write(`kmem: ${line}\n`),
    staticFiles: consoleFiles(CONSOLE_DIST),
  });
  return createServer(
    // idle connections stay open longer than a long worker step can hold the event loop, so a client
    // reusing one does not meet a connection closed under it (API Gateway keeps them far longer still)
    { keepAliveTimeout: LOCAL_KEEP_ALIVE_MS },
    (req, res) => {
      if (!summary.serve(req, res)) router(req, res); // GET /metrics: the local metrics summary
    },
  );
}

/**
 * The worker (in its thread, see worker-thread/), fed by the local queue; messages a stopped runtime left
 * in flight run again.
 */
async function startPumps(
  queue: LocalQueue | undefined,
  handler: SqsLambdaHandler | undefined,
  log: (line: string) => void,
): Promise<QueuePump[]> {
  if (!queue || !handler) return [];
  const pumps = Array.from({ length: LOCAL_WORKERS }, () => new QueuePump({ queue, handler: withProgress(handler, log), log }));
  const released = await queue.releaseInFlight();
  if (released) log(`queue: ${released} message(s) in flight when the runtime last stopped will run again`);
  for (const pump of pumps) pump.start();
  return pumps;
}

async function startStoresClearly(dataDir: string, config: Config): Promise<LocalStores> {
  try {
    return await startStores({ dataDir, bucketName: config.bucketName });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/lock/i.test(message)) {
      throw new Error(`the data directory ${dataDir} is in use by another kmem process (stop it, or set KMEM_DATA_DIR)`);
    }
    throw error;
  }
}

/** The worker as the pump runs it, telling the person at the terminal what it did. */
function withProgress(handler: SqsLambdaHandler, log: (line: string) => void): SqsLambdaHandler {
  return async (event, context) => {
    const started = performance.now();
    const answer = await handler(event, context);
    const failed = answer ? answer.batchItemFailures.length : 0;
    const kinds = event.Records.map((record) => parseWork(record.body)?.kind ?? 'not work');
    const ms = (performance.now() - started).toFixed(0);
    log(`worker: ${kinds.join(', ')} in ${ms} ms${failed ? ` (${failed} failed, will retry)` : ''}`);
    return answer;
  };
}

function endpointsOf(stores: LocalStores) {
  return { dynamodbEndpoint: stores.dynamodbEndpoint, s3Endpoint: stores.s3Endpoint };
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => done((server.address() as AddressInfo).port));
  });
}
