/**
 * The server side of the load benchmark, run in its own process by bench/load.ts:
 *
 *   node --import tsx bench/support/serve.ts <data-dir>
 *
 * Starts the local runtime (dynalite + s3rver + API) in <data-dir>, creates an account (or, when
 * KMEM_API_KEY is set, uses the account the runtime gave that key), and prints one
 * line `READY_MARKER {"url":…,"apiKey":…}` on stdout. A `store-requests` line on stdin is answered with
 * `STORE_REQUESTS_MARKER {"DynamoDB PutItem":…}` on stdout (the stores' requests so far). Stops cleanly on
 * SIGTERM/SIGINT or when stdin closes (the parent went away), so `node --cpu-prof` can write its profile
 * on the way out.
 */
import { createInterface } from 'node:readline';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { setImportSources } from '../../functions/core/use-cases/import-sources';
import { startRuntime, type Runtime } from '../../functions/local/runtime';
import { BULK_BUCKET } from '../ingest-bulk';
import { READY_MARKER, type ServerInfo, STORE_REQUESTS_MARKER } from './server-process';

async function main(dataDir: string | undefined): Promise<void> {
  if (!dataDir) throw new Error('usage: serve.ts <data-dir>');
  const runtime = await startRuntime({
    // one account drives the benchmarks far past any per-account rate limit; the counter stays on, so its cost is measured
    settings: {
      KMEM_DATA_DIR: dataDir,
      KMEM_PORT: '0',
      KMEM_ACCESS_LOG: 'false',
      KMEM_RATE_LIMIT_PER_MINUTE: process.env.KMEM_RATE_LIMIT_PER_MINUTE ?? '1000000000',
      // the bucket of the S3 import bench (bench:ingest -- --path s3), which the bench account may read
      KMEM_IMPORT_BUCKETS: process.env.KMEM_IMPORT_BUCKETS ?? BULK_BUCKET,
    },
    log: (line) => process.stderr.write(`${line}\n`),
  });
  // a bootstrap key (KMEM_API_KEY) is already an account's (the runtime made sure): keep serving it across restarts
  const apiKey = process.env.KMEM_API_KEY || (await createAccount(runtime.deps, 'bench')).apiKey;
  await setImportSources(runtime.deps, process.env.KMEM_API_KEY ? 'default' : 'bench', [BULK_BUCKET]);
  // the benchmarks time the API as its own functions answer on AWS, where no worker shares their CPU: the
  // worker thread loads its modules (seconds of CPU on 2 cores) before the server says it is ready
  await runtime.workerStarted;
  const info: ServerInfo = {
    url: runtime.url,
    apiKey,
    pid: process.pid,
    dynamodbEndpoint: runtime.config.dynamodbEndpoint ?? '',
    s3Endpoint: runtime.config.s3Endpoint ?? '',
  };
  process.stdout.write(`${READY_MARKER} ${JSON.stringify(info)}\n`);
  stopOnSignals(runtime);
}

function stopOnSignals(runtime: Runtime): void {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    runtime.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`stop failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  const commands = createInterface({ input: process.stdin });
  commands.on('line', (line) => {
    if (line.trim() !== 'store-requests') return;
    runtime.storeRequests().then(
      (counts) => process.stdout.write(`${STORE_REQUESTS_MARKER} ${JSON.stringify(counts)}\n`),
      (error: unknown) => process.stderr.write(`store-requests failed: ${String(error)}\n`),
    );
  });
  commands.once('close', stop);
}

main(process.argv[2]).catch((error: unknown) => {
  process.stderr.write(`failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
