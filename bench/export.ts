/**
 * Export and restore benchmark (issue #26): the SciFact corpus built into a memory from its texts (upload,
 * processing, ingestion), then exported into one archive and restored from it into a new memory, through
 * the API of a local runtime in its own process. Prints each way's wall time, the archive's size, and
 * whether a fixed query set answers the same passages from the restored memory.
 *
 *   npm run bench:export [-- --data ../shared/bench-data/scifact --limit N --memory-type vector|graph]
 */
import { parseArgs } from 'node:util';
import { apiClient, inParallel } from './support/api';
import { type BenchDoc, readBenchCorpus } from './support/corpus';
import { machineFacts } from './support/report';
import { startServerProcess } from './support/server-process';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    limit: { type: 'string' },
    'memory-type': { type: 'string', default: 'vector' },
    concurrency: { type: 'string', default: '16' },
  },
});
const docs = readBenchCorpus('scifact', values.data).slice(0, values.limit ? Number(values.limit) : undefined);
const memoryType = values['memory-type'] === 'graph' ? 'graph' : 'vector';
const QUERIES = docs.filter((_, i) => i % Math.max(1, Math.floor(docs.length / 10)) === 0).map((doc) => doc.title);

process.env.KMEM_DEFAULT_TOKEN_LIMIT = '100000000';
const server = await startServerProcess();
const { url, apiKey } = server.info;
const api = apiClient(url, apiKey);

async function until<T>(probe: () => Promise<T | undefined>, intervalMs = 250): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const started = performance.now();
  const value = await work();
  return { value, seconds: (performance.now() - started) / 1000 };
}

async function upload(name: string, bytes: Blob): Promise<string> {
  const form = new FormData();
  form.append('file', bytes, name);
  const sent = await fetch(`${url}/files/upload`, { method: 'POST', headers: { 'X-API-Key': apiKey }, body: form });
  if (!sent.ok) throw new Error(`upload: ${sent.status} ${await sent.text()}`);
  return ((await sent.json()) as { data: { key: string } }).data.key;
}

async function readyMemory(id: string): Promise<Record<string, unknown>> {
  return until(async () => {
    const got = (await api.get(`/memories/get/${id}`)).data as Record<string, unknown>;
    return got.step === 'ready' || got.step === 'failed' ? got : undefined;
  });
}

/** Builds the memory from the corpus: uploads, processing and one ingestion. */
async function build(): Promise<string> {
  const ids = await inParallel(docs.length, Number(values.concurrency), async (i) => {
    const doc = docs[i] as BenchDoc;
    const key = await upload(`${doc._id}.txt`, new Blob([`${doc.title}\n\n${doc.text}`], { type: 'text/plain' }));
    return ((await api.post('/files/create', { name: `${doc._id}.txt`, key, fileType: 'text' })).data as { id: string }).id;
  });
  const shape = memoryType === 'graph' ? { memoryType, ontology: 'essays', factExtraction: true } : { memoryType };
  const memory = (await api.post('/memories/create', { name: 'scifact', ...shape })).data as { id: string };
  for (let i = 0; i < ids.length; i += 100) await api.post('/memories/add-files', { memoryID: memory.id, files: ids.slice(i, i + 100) });
  await api.post('/memories/start-ingestion', { memoryID: memory.id });
  await readyMemory(memory.id);
  return memory.id;
}

async function answers(memoryId: string): Promise<string> {
  const out = [];
  for (const query of QUERIES) {
    const body = await api.get(`/memory/?memoryID=${memoryId}&query=${encodeURIComponent(query)}&topK=10`);
    out.push((body.payload as Array<{ content: string; score: number }>).map((p) => `${p.score.toFixed(6)} ${p.content}`));
  }
  return JSON.stringify(out);
}

try {
  const built = await timed(build);
  const exported = await timed(async () => {
    const exportId = ((await api.post(`/memories/export/${built.value}`, {})).data as { exportID: string }).exportID;
    const done = await until(async () => {
      const got = (await api.get(`/memories/export/${exportId}`)).data as { state: string; url: string; size: number };
      return got.state === 'running' ? undefined : got;
    });
    if (done.state !== 'completed') throw new Error(`export: ${JSON.stringify(done)}`);
    return { ...done, bytes: await (await fetch(done.url)).blob() };
  });
  const restored = await timed(async () => {
    const archiveKey = await upload('scifact.kmem.tar.gz', exported.value.bytes);
    const memoryId = ((await api.post('/memories/restore', { archiveKey })).data as { memoryID: string }).memoryID;
    return { memoryId, memory: await readyMemory(memoryId) };
  });
  const same = (await answers(built.value)) === (await answers(restored.value.memoryId));
  const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(2);
  console.log(
    [
      `## bench:export: SciFact (${docs.length} abstracts), ${memoryType} memory`,
      '',
      ...machineFacts(),
      '',
      '| way | wall time (s) | docs/s | archive (MiB) |',
      '|---|---:|---:|---:|',
      `| build from the corpus (upload, processing, ingestion) | ${built.seconds.toFixed(1)} | ${(docs.length / built.seconds).toFixed(1)} | |`,
      `| export (job, archive written) | ${exported.seconds.toFixed(1)} | ${(docs.length / exported.seconds).toFixed(1)} | ${mb(exported.value.size)} |`,
      `| restore (upload of the archive, restore to ready) | ${restored.seconds.toFixed(1)} | ${(docs.length / restored.seconds).toFixed(1)} | |`,
      '',
      `- restored memory: step ${String(restored.value.memory.step)}, ${String(restored.value.memory.chunkCount)} chunks, ${String(restored.value.memory.fileCount)} files`,
      `- ${QUERIES.length} queries answer the same passages and scores after the restore: ${same ? 'yes' : 'NO'}`,
    ].join('\n'),
  );
  if (!same) process.exitCode = 1;
} finally {
  await server.stop();
}
