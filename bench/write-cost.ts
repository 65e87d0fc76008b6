/**
 * What one write costs as a memory grows, with the segmented index (docs/segments.md): for vector
 * memories of several sizes, one new one-paragraph file is ingested and timed until a warm container's
 * next query finds it (three times, one after the other: medians), with the bytes the build writes to the object store and the bytes the next query's
 * container reads (warm: it holds the earlier segments; cold: it reads them all). In process, on the
 * stores in memory and the offline word-vector embedder; the index build, its objects and the reader are
 * the service's own (buildAndPublishIndex, IndexCache).
 *
 *   npm run bench:write-cost [-- --sizes 2000,50000,500000 --chunk-words 40 --rounds 3 --http]
 *
 * Prints a markdown table. Each size is filled by one bulk build of 10-chunk files first. With --http, the
 * same sizes on the local runtime over HTTP, as a new user would (write-cost-http.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { localConfig } from '../functions/config';
import { buildAndPublishIndex, type IndexDeps } from '../functions/core/ingest/memory-index';
import type { StoredChunk } from '../functions/core/stored-index/chunks';
import { IndexCache } from '../functions/core/stored-index/index-cache';
import { createAccount } from '../functions/core/use-cases/accounts';
import { createMemory } from '../functions/core/use-cases/memories';
import { rankForQuery } from '../functions/engine';
import { composeMemoryDeps } from '../functions/local/compose';
import { composeWorkerDeps } from '../functions/worker/deps';
import { countedObjects, type CountedObjects, linkFile } from './support/in-process-stores';
import { syntheticText } from './support/synthetic-text';
import { measureOverHttp } from './write-cost-http';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '2000,50000,500000' },
    'chunk-words': { type: 'string', default: '40' },
    rounds: { type: 'string', default: '3' },
    http: { type: 'boolean', default: false },
  },
});
const sizes = (values.sizes ?? '')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const chunkWords = Number(values['chunk-words']);

function fileChunks(fileId: string, count: number, seed: number): StoredChunk[] {
  return Array.from({ length: count }, (_, i) => {
    const text = syntheticText(seed + i, chunkWords);
    return { id: `${fileId}:${i}`, fileId, text, start: i * 1000, end: i * 1000 + text.length, title: fileId };
  });
}

/** One-file ingestions timed per memory size; the table shows their medians (the first runs with a cold JIT). */
const ROUNDS = Math.max(1, Number(values.rounds));

interface Round {
  searchable: number;
  build: number;
  written: number;
  warmRead: number;
}

interface RoundDeps {
  deps: IndexDeps;
  store: CountedObjects;
  warm: IndexCache;
  embedder: ReturnType<IndexDeps['indexing']['embedder']>;
}

/** Ingests one one-paragraph file (`fresh<round>`) and times it until the warm container's next query finds it. */
async function addOneFile({ deps, store, warm, embedder }: RoundDeps, accountId: string, memoryId: string, round: number): Promise<Round> {
  const word = `zebracode${round}`;
  const paragraph = `the ${word} paragraph names a quasar lighthouse nobody else mentions`;
  const fileId = `fresh${round}`;
  const fresh = [{ id: `${fileId}:0`, fileId, text: paragraph, start: 0, end: paragraph.length, title: fileId }];
  store.written.bytes = 0;
  const started = performance.now();
  // as an ingestion publishes (ingest-memory.ts): only the added file's link is looked up
  await buildAndPublishIndex(deps, accountId, memoryId, { added: new Map([[fileId, fresh]]), onlyAdded: true, changes: () => ({}) });
  const written = store.written.bytes;
  const build = (performance.now() - started) / 1000;
  store.read.bytes = 0;
  const after = (await deps.memories.get(accountId, memoryId))!;
  const loaded = await warm.load(after)!;
  const { hits } = await rankForQuery(loaded.retrieval, { query: `${word} quasar lighthouse`, limit: 1 }, { embedder });
  const searchable = (performance.now() - started) / 1000;
  if (loaded.retrieval.chunks.ids[hits[0]?.ordinal ?? -1] !== `${fileId}:0`) throw new Error('the new file was not found');
  return { searchable, build, written, warmRead: store.read.bytes };
}

async function measure(size: number): Promise<string> {
  const config = localConfig({
    KMEM_DATA_DIR: mkdtempSync(join(tmpdir(), 'kmem-write-cost-')),
    AWS_REGION: 'local',
    KMEM_GRAPH_WORD_VECTORS: 'false',
  });
  const base = composeMemoryDeps(config);
  const worker = composeWorkerDeps(base);
  const store = countedObjects(worker.objects);
  const deps: IndexDeps = { ...worker, objects: store.objects, queue: { send: async () => undefined } };
  const accountId = (await createAccount(base, `write-cost-${size}-${Date.now()}`)).account.id;
  const memory = await createMemory(base, accountId, { name: 'bench', memoryType: 'vector' });
  const link = (fileId: string) => linkFile(base.links, { accountId, memoryId: memory.id }, fileId);
  const files = Math.ceil(size / 10);
  const bulk = new Map<string, StoredChunk[]>();
  for (let f = 0; f < files; f++) {
    bulk.set(`bulk${f}`, fileChunks(`bulk${f}`, 10, f * 10));
    await link(`bulk${f}`);
  }
  let started = performance.now();
  await buildAndPublishIndex(deps, accountId, memory.id, { added: bulk, changes: () => ({}) });
  const bulkSeconds = (performance.now() - started) / 1000;
  const warm = new IndexCache(store.objects, 4);
  await warm.load((await base.memories.get(accountId, memory.id))!);

  const rounds: Round[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    await link(`fresh${round}`);
    rounds.push(await addOneFile({ deps, store, warm, embedder: worker.indexing.embedder() }, accountId, memory.id, round));
  }
  const middle = (pick: (round: Round) => number) => rounds.map(pick).sort((a, b) => a - b)[Math.floor(rounds.length / 2)] ?? 0;
  const searchable = middle((round) => round.searchable);
  const buildSeconds = middle((round) => round.build);
  const written = middle((round) => round.written);
  const warmRead = middle((round) => round.warmRead);
  const after = (await base.memories.get(accountId, memory.id))!;
  store.read.bytes = 0;
  started = performance.now();
  await new IndexCache(store.objects, 4).load(after);
  const coldSeconds = (performance.now() - started) / 1000;
  const coldRead = store.read.bytes;
  const mb = (bytes: number) => (bytes / 1e6).toFixed(3);
  const columns = [
    bulkSeconds.toFixed(1),
    searchable.toFixed(2),
    buildSeconds.toFixed(2),
    middle((round) => round.searchable - round.build).toFixed(3),
  ];
  return `| ${size.toLocaleString('en')} | ${columns.join(' | ')} | ${mb(written)} | ${mb(warmRead)} | ${mb(coldRead)} | ${coldSeconds.toFixed(2)} |`;
}

if (values.http) {
  for (const row of await measureOverHttp(sizes, ROUNDS)) console.log(row);
} else {
  console.log(
    '| chunks | bulk build (s) | one new file searchable, warm (s) | of which the build (s) | of which the warm load and query (s) | bytes written (MB) | read by the warm container (MB) | read by a cold container (MB) | cold load (s) |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const size of sizes) console.log(await measure(size));
}
