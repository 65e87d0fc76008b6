/**
 * What one store round trip costs on the local runtime: the local stores on their own thread (as the
 * runtime runs them) and kmem's own adapters (the Table and the S3 object store, through the real AWS SDK
 * clients) calling them over HTTP, as the pipeline does.
 *
 *   npm run bench:store-calls [-- --calls 2000 --concurrency 16]
 *
 * For each operation the pipeline makes per document, prints the wall time and the CPU time per call
 * (user + system of this whole process: the calling thread, the stores' thread and libuv's pool). With
 * the store requests per document that `npm run bench:ingest` prints, this gives the CPU the store round
 * trips of one document cost, and so the least CPU a corpus can take on this machine.
 */
import '../functions/local/local-env'; // as the runtime: X-Ray's hooks off locally
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { composeLocalDeps } from '../functions/local/compose';
import { loadConfig } from '../functions/config';
import { ensureTable, startStores } from '../functions/local/stores';
import { inParallel } from './support/api';
import { machineFacts } from './support/report';

const { values } = parseArgs({
  options: { calls: { type: 'string', default: '2000' }, concurrency: { type: 'string', default: '16' } },
});
const calls = Number(values.calls);
const concurrency = Number(values.concurrency);

/** A SciFact abstract's size in bytes, about. */
const TEXT = 'Mitochondria produce ATP through oxidative phosphorylation in the inner membrane. '.repeat(20);
const BUCKET = 'kmem-bench';
const dataDir = mkdtempSync(join(tmpdir(), 'kmem-store-calls-'));
const stores = await startStores({ dataDir, bucketName: BUCKET });

try {
  const deps = composeLocalDeps(
    loadConfig({
      ...process.env,
      KMEM_DATA_DIR: dataDir,
      KMEM_DYNAMODB_ENDPOINT: stores.dynamodbEndpoint,
      KMEM_S3_ENDPOINT: stores.s3Endpoint,
      KMEM_BUCKET_NAME: BUCKET,
      KMEM_LOCAL_QUEUE_DIR: join(dataDir, 'queue'),
      AWS_REGION: 'local',
    }),
  );
  await ensureTable(deps.documentClient, deps.config.tableName);
  const { table, objects } = deps;
  const key = (i: number) => ({ pk: `A#bench#F#${i}`, sk: 'FILE' });
  const item = (i: number) => ({ ...key(i), kind: 'file', state: 'pending', name: `doc-${i}.txt`, size: TEXT.length });
  const objectKey = (i: number) => `bronze/bench/${i}/doc-${i}.txt`;

  const operations: Array<[string, (i: number) => Promise<unknown>]> = [
    ['DynamoDB PutItem (conditional create)', (i) => table.create(item(i))],
    ['DynamoDB UpdateItem (conditional, returns the item)', (i) => table.update(key(i), { state: 'ready' }, stateIs('pending'))],
    ['DynamoDB GetItem (consistent)', (i) => table.get(key(i))],
    ['S3 PUT (a 1.7 KB text)', (i) => objects.put(objectKey(i), TEXT, 'text/plain')],
    ['S3 GET', (i) => objects.get(objectKey(i))],
  ];
  const rows: string[] = [];
  for (const [name, call] of operations) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    await inParallel(calls, concurrency, call);
    const used = process.cpuUsage(cpu);
    const wallMs = (performance.now() - started) / calls;
    const cpuMs = (used.user + used.system) / 1000 / calls;
    rows.push(`| ${name} | ${wallMs.toFixed(2)} | ${cpuMs.toFixed(2)} |`);
    process.stderr.write(`[bench] ${name}: ${cpuMs.toFixed(2)} ms CPU per call\n`);
  }
  console.log(
    [
      '## kmem store round trips on the local runtime (stores on their own thread, real SDK clients)',
      '',
      ...machineFacts(),
      `- ${calls} calls per operation, ${concurrency} at once`,
      '',
      '| operation | wall ms per call | CPU ms per call (all threads) |',
      '|---|---:|---:|',
      ...rows,
    ].join('\n'),
  );
} finally {
  await stores.close();
  rmSync(dataDir, { recursive: true, force: true });
}

function stateIs(state: string) {
  return { expression: '#state = :state', names: { '#state': 'state' }, values: { ':state': state } };
}
