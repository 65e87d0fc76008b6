/**
 * Ingestion benchmark: the SciFact corpus (5,183 abstracts) uploaded as text files through the API of a
 * local runtime in its own process, processed by the worker, then ingested into one vector memory.
 *
 *   npm run bench:ingest [-- --data ../shared/bench-data/scifact --limit N --concurrency 16]
 *   npm run bench:ingest -- --corpus musique --memory-type graph [--ontology culture]
 *   npm run bench:ingest -- --path archive|s3     (the bulk path: bench/ingest-bulk.ts)
 *
 * `--corpus musique` takes HippoRAG's MuSiQue subset corpus (1,890 passages, `[{title, text}]`) instead,
 * and `--memory-type graph` ingests into a graph memory (entities, relations, facts and their table items).
 * Prints a markdown table: per stage the wall time, documents/s, chunks/s and tokens/s, and the server
 * process's peak resident memory. Reads the corpus where it lies (never copied).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runBulk } from './ingest-bulk';
import { apiClient, inParallel } from './support/api';
import { type BenchDoc, readBenchCorpus } from './support/corpus';
import { machineFacts } from './support/report';
import { startServerProcess } from './support/server-process';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    corpus: { type: 'string', default: 'scifact' },
    'memory-type': { type: 'string', default: 'vector' },
    ontology: { type: 'string', default: 'culture' },
    limit: { type: 'string' },
    concurrency: { type: 'string', default: '16' },
    /** `files` (one upload and create per document), or the bulk path: `archive` (one zip) or `s3` (a prefix). */
    path: { type: 'string', default: 'files' },
    'cpu-prof': { type: 'string' },
  },
});

const docs = readBenchCorpus(values.corpus, values.data).slice(0, values.limit ? Number(values.limit) : undefined);
const memoryType = values['memory-type'] === 'graph' ? 'graph' : 'vector';

const concurrency = Number(values.concurrency);

process.env.KMEM_DEFAULT_TOKEN_LIMIT = '100000000';
const server = await startServerProcess(values['cpu-prof'] ? { cpuProfileDir: values['cpu-prof'] } : {});
const { url, apiKey, pid } = server.info;
const api = apiClient(url, apiKey);
type Requests = Record<string, number>;
interface Stage {
  stage: string;
  ms: number;
  cpuMs?: number;
  docs?: number;
  chunks?: number;
  tokens?: number;
  requests?: Requests;
}
const stages: Stage[] = [];
const bulkNotes: string[] = [];

type Measured = Pick<Stage, 'ms' | 'cpuMs' | 'requests'>;

/** Runs one stage, measuring its wall time, the server's CPU time and the store requests it made. */
async function timed<T>(stage: string, work: () => Promise<T>): Promise<{ value: T; measured: Measured }> {
  const started = performance.now();
  const cpuBefore = server.cpuMs();
  const requestsBefore = await server.storeRequests();
  const value = await work();
  const ms = performance.now() - started;
  const measured = { ms, cpuMs: cpuSince(cpuBefore), requests: difference(await server.storeRequests(), requestsBefore) };
  process.stderr.write(`[bench] ${stage}: ${(ms / 1000).toFixed(1)} s\n`);
  return { value, measured };
}

/** The server's CPU time since `before` (a `server.cpuMs()` reading), in ms; undefined off Linux. */
function cpuSince(before: number | undefined): number | undefined {
  const now = server.cpuMs();
  return before === undefined || now === undefined ? undefined : now - before;
}

function difference(after: Requests, before: Requests): Requests {
  return Object.fromEntries(Object.entries(after).map(([name, count]) => [name, count - (before[name] ?? 0)]));
}

/** Store requests once the server has gone quiet (work that follows `ready`, such as marking links, included). */
async function settledRequests(): Promise<Requests> {
  for (let last = await server.storeRequests(); ; ) {
    await new Promise((r) => setTimeout(r, 1_000));
    const now = await server.storeRequests();
    if (JSON.stringify(now) === JSON.stringify(last)) return now;
    last = now;
  }
}

async function uploadOne(doc: BenchDoc): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([`${doc.title}\n\n${doc.text}`], { type: 'text/plain' }), `${doc._id}.txt`);
  const sent = await fetch(`${url}/files/upload`, { method: 'POST', headers: { 'X-API-Key': apiKey }, body: form });
  if (!sent.ok) throw new Error(`upload: ${sent.status} ${await sent.text()}`);
  const key = ((await sent.json()) as { data: { key: string } }).data.key;
  const created = await api.post('/files/create', { name: `${doc._id}.txt`, key, fileType: 'text' });
  return (created.data as { id: string }).id;
}

/** Every file's state, through the listing (100 a page). */
async function fileStates(): Promise<Array<{ state: string; tokens: number | null }>> {
  const all: Array<{ state: string; tokens: number | null }> = [];
  let token: string | null = null;
  do {
    const page: Record<string, unknown> = await api.get(`/files/list?limit=100${token ? `&nextToken=${encodeURIComponent(token)}` : ''}`);
    all.push(...(page.files as Array<{ state: string; tokens: number | null }>));
    token = page.nextToken as string | null;
  } while (token);
  return all;
}

async function until<T>(probe: () => Promise<T | undefined>, intervalMs: number): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

try {
  if (values.path === 'archive' || values.path === 's3') await bulk(values.path);
  else await perFile();
} finally {
  await server.stop();
}

/** The bulk path: one import of the whole corpus, then a re-import with changes (bench/ingest-bulk.ts). */
async function bulk(path: 'archive' | 's3'): Promise<void> {
  const requestsAtStart = await server.storeRequests();
  const timedStage = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const { value, measured } = await timed(name, work);
    const counted = name.startsWith('re-import') ? 100 : name.startsWith(' ') ? undefined : docs.length;
    stages.push({ stage: name, ...measured, ...(counted === undefined ? {} : { docs: counted }) });
    return value;
  };
  const { s3Endpoint } = server.info;
  const counts = await runBulk({ api, url, apiKey, s3Endpoint, path, timed: timedStage }, docs);
  const afterReady = difference(await settledRequests(), requestsAtStart);
  bulkNotes.push(
    `- path: ${path === 'archive' ? "one .zip, built before the clock starts (as a user's archive exists) and uploaded inside the timed stage" : "an S3 prefix of the runtime's store, filled before the clock starts"}, through POST /files/import with memoryID`,
    "- searchable: a search finds the last document and the index holds every file; ready: the ingestion ended (each file's chunk artefact and link written after the publish)",
    `- first import: ${JSON.stringify(counts.first)}`,
    `- re-import (prune): ${JSON.stringify(counts.second)}; docs/s of that stage counts the 100 changed or removed documents`,
  );
  const memory = { chunkCount: 0, entityCount: 0, relationCount: 0, factCount: 0 };
  report(peakRssMb(pid), memory, afterReady);
}

async function perFile(): Promise<void> {
  const wall = performance.now();
  const cpuAtStart = server.cpuMs();
  const requestsAtStart = await server.storeRequests();
  const uploaded = await timed('upload + create', () => inParallel(docs.length, concurrency, (i) => uploadOne(docs[i] as BenchDoc)));
  stages.push({ stage: 'upload + create (API)', ...uploaded.measured, docs: docs.length });

  const processed = await timed('processing', () =>
    until(async () => {
      const states = await fileStates();
      const done = states.filter((f) => f.state === 'ready' || f.state === 'failed');
      return done.length >= docs.length ? states : undefined;
    }, 500),
  );
  const tokens = processed.value.reduce((sum, f) => sum + (f.tokens ?? 0), 0);
  stages.push({ stage: 'processing (worker, after the last create)', ...processed.measured, docs: docs.length, tokens });

  const shape = memoryType === 'graph' ? { memoryType, ontology: values.ontology, factExtraction: true } : { memoryType };
  const memory = (await api.post('/memories/create', { name: values.corpus, ...shape })).data as { id: string };
  const ingested = await timed('ingestion', async () => {
    await timed('  add-files', async () => {
      for (let i = 0; i < uploaded.value.length; i += 100) {
        await api.post('/memories/add-files', { memoryID: memory.id, files: uploaded.value.slice(i, i + 100) });
      }
    });
    await timed('  start-ingestion', () => api.post('/memories/start-ingestion', { memoryID: memory.id }));
    return until(async () => {
      const got = (await api.get(`/memories/get/${memory.id}`)).data as MemoryCounts & { step: string };
      return got.step === 'ready' || got.step === 'failed' ? got : undefined;
    }, 250);
  });
  const chunks = ingested.value.chunkCount;
  stages.push({ stage: 'add-files + ingestion (chunk, index, publish)', ...ingested.measured, docs: docs.length, chunks, tokens });
  const total = { ms: performance.now() - wall, cpuMs: cpuSince(cpuAtStart) };
  stages.push({ stage: '**total: corpus searchable**', ...total, docs: docs.length, chunks, tokens });
  const afterReady = difference(await settledRequests(), requestsAtStart);
  report(peakRssMb(pid), ingested.value, afterReady);
}

interface MemoryCounts {
  chunkCount: number;
  entityCount: number;
  relationCount: number;
  factCount: number;
}

function report(peakMb: number | undefined, memory: MemoryCounts, allRequests: Requests): void {
  const rate = (n: number | undefined, ms: number) => (n === undefined ? '' : Math.round(n / (ms / 1000)).toLocaleString('en'));
  const lines = [
    `## kmem ingestion benchmark (${values.corpus} corpus as ${values.path === 'files' ? 'text files' : `one bulk import (${values.path})`} into a ${memoryType} memory, local runtime)`,
    '',
    ...machineFacts(),
    ...bulkNotes,
    `- documents: ${docs.length}, client concurrency ${concurrency}; server peak RSS ${peakMb ?? 'n/a'} MB`,
    `- this client's own CPU (uploads, polling), sharing the 2 cores: ${(cpuSeconds(process.cpuUsage())).toFixed(1)} s`,
    ...(memoryType === 'graph'
      ? [`- graph: ${memory.entityCount} entities, ${memory.relationCount} relations, ${memory.factCount} facts`]
      : []),
    '',
    '| stage | wall s | server CPU s | docs/s | chunks/s | tokens/s |',
    '|---|---:|---:|---:|---:|---:|',
    ...stages.map(
      (s) =>
        `| ${s.stage} | ${(s.ms / 1000).toFixed(1)} | ${s.cpuMs === undefined ? 'n/a' : (s.cpuMs / 1000).toFixed(1)} | ${rate(s.docs, s.ms)} | ${rate(s.chunks, s.ms)} | ${rate(s.tokens, s.ms)} |`,
    ),
    '',
    `Server CPU: user + system time of the runtime process (both its threads), from /proc; 2 cores give at most 2 s per wall second.`,
    '',
    ...requestTable(allRequests),
    '',
    values.path !== 'files'
      ? 'Target on this 2-core machine (issue #15): the SciFact corpus searchable in under 40 s; the re-import in under 5 s.'
      : memoryType === 'graph'
        ? 'Target on this 2-core machine (issue #5): the 1,890 MuSiQue passages as a graph memory in under 30 s.'
        : 'Target on this 2-core machine (issue #4): the SciFact corpus searchable in under 60 s.',
  ];
  console.log(lines.join('\n'));
}

/** Store requests per document, by operation and stage; the last column also counts work after `ready`. */
function requestTable(all: Requests): string[] {
  const measured = stages.filter((s) => s.requests);
  const names = Object.keys(all)
    .filter((name) => (all[name] ?? 0) > 0)
    .sort();
  const perDoc = (n: number | undefined) => ((n ?? 0) / docs.length).toFixed(2);
  const total = (requests: Requests) => Object.values(requests).reduce((sum, n) => sum + n, 0);
  return [
    'Store requests per document (dynalite and s3rver, counted where they are served):',
    '',
    `| operation | ${measured.map((s) => s.stage).join(' | ')} | all, until the server is idle |`,
    `|---|${measured.map(() => '---:|').join('')}---:|`,
    ...names.map((name) => `| ${name} | ${measured.map((s) => perDoc(s.requests?.[name])).join(' | ')} | ${perDoc(all[name])} |`),
    `| **all** | ${measured.map((s) => perDoc(total(s.requests ?? {}))).join(' | ')} | ${perDoc(total(all))} |`,
  ];
}

function cpuSeconds(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1e6;
}

/** The server process's peak resident set (VmHWM), Linux only. */
function peakRssMb(processId: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${processId}/status`, 'utf8');
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]);
    return Number.isFinite(kb) ? Math.round(kb / 1024) : undefined;
  } catch {
    return undefined;
  }
}
