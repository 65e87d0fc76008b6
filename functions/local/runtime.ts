/**
 * The local runtime: the stores (in a thread), the same handlers behind the local router, and the queue
 * feeding the worker (in a thread of its own, so its CPU never holds the API's event loop), in one
 * process. The settings are read once (the environment, with the caller's settings over it, plus the
 * endpoints of the stores it started), composed into one set of deps handed to every handler, and given
 * to the worker thread, which composes its own; the process environment is never written.
 */
import './local-env';
import { writeFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { LocalQueue } from '../adapters/queue/local-queue';
import { type Config, localConfig, type Settings } from '../config';
import { authenticate, ensureAccountWithKey } from '../core/use-cases/accounts';
import { catalog } from '../catalog';
import { parseWork } from '../worker/dispatch';
import { CONSOLE_DIST } from '../../lib/console-build';
import { composeLocalDeps, type LocalDeps } from './compose';
import { consoleFiles } from './console-files';
import { httpHandlers } from './handlers';
import { QueuePump, type SqsLambdaHandler } from './queue-pump';
import { addMetricSink } from '../core/metrics';
import { MetricsSummary } from './metrics-summary';
import { createRouter } from './router';
import { startLocalVectorTier } from './local-vector-tier';
import { WorkerThreadHost } from './worker-thread/host';
import { allowUploadsFrom, ensureTable, type LocalStores, privateDirectory, startStores } from './stores';

/** Batches the local worker handles at once (on AWS, Lambda scales the worker instead). */
const LOCAL_WORKERS = 3;
const LOCAL_KEEP_ALIVE_MS = 65_000;

export interface Runtime {
  url: string;
  /** The web console's address (`GET /console/`). */
  consoleUrl: string;
  config: Config;
  /** The deps every handler is served with (tests and benchmarks make accounts with them). */
  deps: LocalDeps;
  /** Requests the local stores have served, by operation (for benchmarks that count round trips). */
  storeRequests(): Promise<Record<string, number>>;
  /** Settles once the worker thread has loaded its modules (or failed to: logged, the next batch tries again). */
  workerStarted: Promise<void>;
  stop(): Promise<void>;
}

export interface RuntimeOptions {
  /** Settings over those of the process environment (tests give ports, data directories, limits here). */
  settings?: Settings;
  log?: (line: string) => void;
}

export async function startRuntime(options: RuntimeOptions = {}): Promise<Runtime> {
  const log = options.log ?? (() => undefined);
  const base = localConfig(options.settings);
  const dataDir = resolve(base.dataDir);
  // every tenant's data is under here: the owner's alone (directories 0700, files 0600)
  const umask = process.umask(0o077);
  privateDirectory(dataDir);

  log(`starting stores in ${dataDir}`);
  const stores = await startStoresClearly(dataDir, base);
  const vectors = await startLocalVectorTier(base, log);
  const deps = composeLocalDeps(localConfig({ ...options.settings, ...storeSettings(dataDir, stores), ...vectors?.settings }));
  await ensureTable(deps.documentClient, deps.config.tableName);
  if (deps.config.bootstrapApiKey) {
    const account = await ensureAccountWithKey(deps, deps.config.bootstrapApiKey);
    log(`KMEM_API_KEY is a key of account '${account.name}'`);
  }

  // a server loads its query model before it takes requests, not on the first one: with the offline word
  // vectors (the local default; a deployed stack embeds with Bedrock or not at all) that is a second
  loadQueryEmbedder(deps, log);

  const summary = new MetricsSummary();
  const removeSummary = addMetricSink(summary);
  const server = apiServer(deps, log, summary);
  const worker = new WorkerThreadHost(deps.localQueue, deps.config, log);
  // loading the worker's modules takes seconds: the API starts meanwhile, the first batch waits for it
  const workerStarted = worker.start().then(
    () => undefined,
    (error: unknown) => log(`worker thread failed to start (the next batch tries again): ${String(error)}`),
  );
  const pumps = await startPumps(deps.localQueue, worker.handler, log);
  const port = await listen(server, deps.config.host, deps.config.port);
  const url = `http://${deps.config.host}:${port}`;
  await allowUploadsFrom(deps.config, port);
  const stateFile = join(dataDir, 'runtime.json');
  writeFileSync(stateFile, JSON.stringify({ pid: process.pid, url, ...endpointsOf(stores) }, null, 2), { mode: 0o600 });
  log(`kmem API listening on ${url}`);

  return {
    url,
    consoleUrl: `${url}/console/`,
    config: deps.config,
    deps,
    storeRequests: () => stores.requestCounts(),
    workerStarted,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await Promise.all(pumps.map((pump) => pump.stop()));
      await worker.stop();
      await stores.close();
      await vectors?.close();
      rmSync(stateFile, { force: true });
      removeSummary();
      process.umask(umask);
    },
  };
}

/** Loads the query embedder now; a failure is logged and left to the first query, which tries again and answers it. */
function loadQueryEmbedder(deps: LocalDeps, log: (line: string) => void): void {
  const started = performance.now();
  try {
    if (deps.indexing.embedder()) log(`query embedder loaded in ${(performance.now() - started).toFixed(0)} ms`);
  } catch (error) {
    log(`query embedder failed to load (the first query tries again): ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The store settings of the stores this runtime started (its queue is a directory beside them). */
function storeSettings(dataDir: string, stores: LocalStores): Settings {
  return {
    KMEM_DATA_DIR: dataDir,
    KMEM_DYNAMODB_ENDPOINT: stores.dynamodbEndpoint,
    KMEM_S3_ENDPOINT: stores.s3Endpoint,
    KMEM_LOCAL_QUEUE_DIR: join(dataDir, 'queue'),
  };
}

/** The same handlers behind the local router, all over the runtime's deps. */
function apiServer(deps: LocalDeps, log: (line: string) => void, summary: MetricsSummary): Server {
  const { config } = deps;
  const router = createRouter({
    routes: catalog,
    handlers: httpHandlers(deps),
    maxRequestBytes: Math.max(config.maxBodyBytes, config.maxUploadBytes) + 64 * 1024,
    authenticate: (apiKey) => authenticate(deps.apiKeys, apiKey),
    onRequest: config.accessLog ? log : undefined,
    onError: (line) => process.stderr.write(`kmem: ${line}\n`),
    staticFiles: consoleFiles(CONSOLE_DIST, config.s3Endpoint ? new URL(config.s3Endpoint).origin : "'self'"),
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
async function startPumps(queue: LocalQueue, handler: SqsLambdaHandler, log: (line: string) => void): Promise<QueuePump[]> {
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
