/**
 * What each layer of a warm `GET /memory/` costs beyond the ranking, in one process: the local runtime
 * started on a saved `bench:latency` build (`--reuse DIR`), then SciFact claims asked three ways in
 * rotating order, each claim first once through the use case (so every measured ask repeats a text and
 * the ranking's cost is the same at every layer):
 *
 * - `nothing`: the measurement's own cost (reading every thread's CPU before and after), to subtract;
 * - `store read`: the one read every query makes (the memory item and the source version, one BatchGetItem);
 * - `use case`: `queryMemory` over the runtime's deps (the store read, the ranking, the sources);
 * - `handler`: the retrieval function's handler with a built API Gateway event (middy, Powertools, the
 *   key check, the rate limit, validation, the JSON reply);
 * - `http`: `GET /memory/` over a kept-alive socket to the runtime's own server (the local router, the
 *   socket reads and writes, and this process's client too: an upper bound of the HTTP layer).
 *
 * Prints, per layer, the CPU per query (`/proc/self/task/<tid>/schedstat`, ns) of the main thread (API,
 * handlers, engine), of the stores' thread (dynalite, s3rver: found as the thread that works while only
 * the stores are asked), of the other threads (V8's GC helpers, libuv's pool) and of all, and the store
 * requests per query by operation. The differences between rows are the layers' costs.
 *
 *   npx tsx bench/query-layers.ts --reuse DIR [--data DIR --queries 300 --rounds 3]
 */
import '../functions/local/local-env';
import { readdirSync, readFileSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { parseArgs } from 'node:util';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { queryMemory } from '../functions/core/use-cases/query-memory';
import { lambdaContext } from '../functions/local/lambda-context';
import { httpHandlers } from '../functions/local/handlers';
import { type Runtime, startRuntime } from '../functions/local/runtime';
import { authenticate } from '../functions/core/use-cases/accounts';
import { loadClaims } from './latency/corpus';
import { machineFacts } from './support/report';

const { values } = parseArgs({
  options: {
    reuse: { type: 'string' },
    data: { type: 'string', default: '../shared/bench-data/scifact' },
    queries: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '3' },
    'top-k': { type: 'string', default: '10' },
  },
});

interface SavedBuild {
  apiKey: string;
  build: { memories: Array<{ memoryId: string; chunkCount: number }> };
}

type Layer = 'nothing' | 'store read' | 'use case' | 'handler' | 'http';
const LAYERS: readonly Layer[] = ['nothing', 'store read', 'use case', 'handler', 'http'];

/** CPU each thread of this process has run, in ns, by thread id (Linux). */
function threadsNs(): Map<string, number> {
  const threads = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      threads.set(tid, Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]));
    } catch {
      // the thread ended meanwhile
    }
  }
  return threads;
}

async function main(): Promise<void> {
  if (!values.reuse) throw new Error('usage: query-layers.ts --reuse DIR (a saved bench:latency build)');
  const saved = JSON.parse(readFileSync(`${values.reuse}/latency-build.json`, 'utf8')) as SavedBuild;
  const memory = saved.build.memories[0];
  if (!memory) throw new Error('the saved build has no memory');
  process.env.KMEM_API_KEY = saved.apiKey;
  const runtime = await startRuntime({
    settings: { KMEM_DATA_DIR: values.reuse, KMEM_PORT: '0', KMEM_ACCESS_LOG: 'false', KMEM_RATE_LIMIT_PER_MINUTE: '1000000000' },
  });
  try {
    await runtime.workerStarted;
    const claims = loadClaims(values.data).slice(0, Number(values.queries));
    const ask = await asker(runtime, saved.apiKey, memory.memoryId, Number(values['top-k']));
    for (const claim of claims.slice(0, 50)) for (const layer of LAYERS) await ask(layer, claim); // warm-up
    const storeTid = await storeThreadId(runtime);
    const totals = new Map(
      LAYERS.map((layer) => [layer, { threads: new Map<string, number>(), queries: 0, stores: {} as Record<string, number> }]),
    );
    for (let round = 0; round < Number(values.rounds); round++) {
      for (const [i, claim] of claims.entries()) {
        await ask('use case', claim);
        for (let j = 0; j < LAYERS.length; j++) {
          const layer = LAYERS[(i + j + round) % LAYERS.length] as Layer;
          const total = totals.get(layer)!;
          const before = await runtime.storeRequests();
          const threads0 = threadsNs();
          await ask(layer, claim);
          for (const [tid, ns] of threadsNs()) total.threads.set(tid, (total.threads.get(tid) ?? 0) + ns - (threads0.get(tid) ?? 0));
          total.queries += 1;
          addCounts(total.stores, before, await runtime.storeRequests());
        }
      }
    }
    const rows = [...totals].map(([layer, t]) => {
      const stores = Object.entries(t.stores)
        .map(([op, n]) => `${op} ${(n / t.queries).toFixed(3)}`)
        .join(', ');
      const perQuery = (ns: number) => (ns / t.queries / 1e6).toFixed(3);
      const main = t.threads.get(String(process.pid)) ?? 0;
      const store = t.threads.get(storeTid) ?? 0;
      const all = [...t.threads.values()].reduce((sum, ns) => sum + ns, 0);
      return `| ${layer} | ${perQuery(main)} | ${perQuery(store)} | ${perQuery(all - main - store)} | ${perQuery(all)} | ${stores || 'none'} |`;
    });
    console.log(
      [
        `## kmem: a warm query's CPU by layer (${memory.chunkCount} chunks, topK ${values['top-k']}, facts=true, repeated texts)`,
        '',
        ...machineFacts(),
        `- load average at the end: ${(await import('node:os')).loadavg()[0]?.toFixed(1)}`,
        '',
        '| layer | main thread | store thread | other threads | all threads | store requests/query |',
        '|---|---:|---:|---:|---:|---|',
        ...rows,
      ].join('\n'),
    );
  } finally {
    await runtime.stop();
  }
}

/** Asks one claim at one layer; fails on anything but a 200 with passages. */
async function asker(runtime: Runtime, apiKey: string, memoryId: string, topK: number) {
  const accountId = await authenticate(runtime.deps.apiKeys, apiKey);
  const handler = httpHandlers(runtime.deps).retrieval;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const query = (claim: string) => ({ memoryID: memoryId, query: claim, topK: String(topK), facts: 'true' });
  return async (layer: Layer, claim: string): Promise<void> => {
    if (layer === 'nothing') return;
    if (layer === 'store read') {
      const read = runtime.deps.memoryRecords?.memoryAndSourceVersion(accountId, memoryId);
      if (!read || !(await read.memory)) throw new Error('the memory record was not read');
      await read.sourceVersion;
      return;
    }
    if (layer === 'use case') {
      const { retrieval } = await queryMemory(runtime.deps, accountId, {
        memoryId,
        query: claim,
        topK,
        facts: true,
        assisted: false,
      });
      if (retrieval.payload.length === 0) throw new Error('no passages');
      return;
    }
    if (layer === 'handler') {
      const answer = await handler(eventOf(apiKey, query(claim)), lambdaContext('retrieval', crypto.randomUUID()));
      if (answer.statusCode !== 200) throw new Error(`handler answered ${answer.statusCode}: ${answer.body}`);
      return;
    }
    const url = `${runtime.url}/memory/?${new URLSearchParams(query(claim))}`;
    await new Promise<void>((done, fail) => {
      get(url, { agent, headers: { 'x-api-key': apiKey } }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? done() : fail(new Error(`HTTP ${res.statusCode}`))));
      }).on('error', fail);
    });
  };
}

function eventOf(apiKey: string, query: Record<string, string>): APIGatewayProxyEvent {
  const headers = { 'x-api-key': apiKey, host: '127.0.0.1' };
  return {
    resource: '/memory',
    path: '/memory/',
    httpMethod: 'GET',
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    queryStringParameters: query,
    multiValueQueryStringParameters: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, [v]])),
    pathParameters: null,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      authorizer: undefined,
      protocol: 'HTTP/1.1',
      httpMethod: 'GET',
      identity: {} as APIGatewayProxyEvent['requestContext']['identity'],
      path: '/memory/',
      stage: 'local',
      domainName: '127.0.0.1',
      requestId: crypto.randomUUID(),
      requestTimeEpoch: Date.now(),
      resourceId: '/memory',
      resourcePath: '/memory',
    },
  };
}

/** The stores' thread: the one (besides this) that works hardest while only the stores are asked. */
async function storeThreadId(runtime: Runtime): Promise<string> {
  const before = threadsNs();
  for (let i = 0; i < 300; i++) await runtime.deps.table.getMany([{ pk: 'bench#absent', sk: 'bench' }]);
  const grown = [...threadsNs()]
    .filter(([tid]) => tid !== String(process.pid))
    .map(([tid, ns]) => [tid, ns - (before.get(tid) ?? 0)] as const)
    .sort((a, b) => b[1] - a[1]);
  return grown[0]?.[0] ?? '';
}

function addCounts(into: Record<string, number>, before: Record<string, number>, after: Record<string, number>): void {
  for (const [op, n] of Object.entries(after)) {
    const delta = n - (before[op] ?? 0);
    if (delta > 0) into[op] = (into[op] ?? 0) + delta;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
