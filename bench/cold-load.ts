/**
 * What a cold container spends before its first answer, in a fresh process each time (cold JIT, as a new
 * Lambda): reading one segment as queries do (readQueriedSegment: its `retrieval.idx` and `chunks.json`)
 * and the first query (payload texts included), for the files written before #23's compact load (index
 * format 1, whose writer test/support keeps, and whole records with their texts), then (index format 2,
 * whole records without texts) and now (records of format 2: only what the index lacks).
 * The index is the service's own (buildRetrievalIndex with the offline word-vector embedder) over
 * generated 40-word chunks in 10-chunk files, as bench/write-cost.ts makes them.
 *
 *   npm run bench:cold-load [-- --sizes 2000,20000,100000 --rounds 3]
 *
 * Prints a markdown table of medians over the rounds (the formats alternate within a round).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadWordVectorEmbedder } from '../functions/adapters/embeddings/word-vector-loader';
import type { ObjectStore } from '../functions/core/ports';
import { encodeChunks, type StoredChunk } from '../functions/core/stored-index/chunks';
import { INDEX_FILES } from '../functions/core/stored-index/index-files';
import { encodeSegmentRecords } from '../functions/core/stored-index/segment-records';
import { readQueriedSegment } from '../functions/core/stored-index/segments';
import { buildRetrievalIndex, retrieve, serializeRetrievalIndex } from '../functions/engine';
import { serializeRetrievalIndexV1 } from '../test/support/legacy-index-formats';
import { syntheticText } from './support/synthetic-text';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '2000,20000,100000' },
    rounds: { type: 'string', default: '3' },
    child: { type: 'string' },
  },
});

const QUERY = 'owl3 night7 glacier valley river12';

function chunksOf(size: number): StoredChunk[] {
  return Array.from({ length: size }, (_, n) => {
    const fileId = `file${Math.floor(n / 10)}`;
    const text = syntheticText(n, 40);
    return { id: `${fileId}:${n % 10}`, fileId, text, start: (n % 10) * 1000, end: (n % 10) * 1000 + text.length, title: fileId };
  });
}

interface Timings {
  read: number;
  query: number;
}

/** In the child: read one segment folder as the service's queries do (readQueriedSegment), answer one query, print the times (ms). */
async function child(folder: string): Promise<void> {
  const embedder = loadWordVectorEmbedder();
  // the files as plain Uint8Arrays, as the object store answers (a Buffer's slice() is a view, not a copy)
  const files = new Map<string, Uint8Array>(
    [INDEX_FILES.retrieval, INDEX_FILES.chunks].map((name) => [name, new Uint8Array(readFileSync(join(folder, name)))]),
  );
  const objects = { get: async (key: string) => files.get(key) } as Pick<ObjectStore, 'get'> as ObjectStore;
  const started = performance.now();
  const segment = await readQueriedSegment(objects, '');
  const read = performance.now();
  const outcome = await retrieve(segment.retrieval, { query: QUERY, topK: 10 }, { embedder });
  const done = performance.now();
  if (outcome.payload.length === 0 || segment.chunks.length !== segment.retrieval.chunks.ids.length)
    throw new Error('the cold query found nothing');
  const timings: Timings = { read: read - started, query: done - read };
  console.log(JSON.stringify(timings));
}

function runChild(folder: string): Timings {
  const result = spawnSync(process.execPath, [...process.execArgv, process.argv[1] ?? '', '--child', folder], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`child failed: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').pop() ?? '{}') as Timings;
}

const median = (list: number[]): number => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0;

async function measure(size: number, rounds: number): Promise<string[]> {
  const root = mkdtempSync(join(tmpdir(), 'kmem-cold-'));
  try {
    const chunks = chunksOf(size);
    const index = await buildRetrievalIndex(chunks, { embedder: loadWordVectorEmbedder() });
    // before #23's compact load: index format 1 and whole records with their texts; then index format 2 and
    // whole records without texts; now records of format 2 (only what the index lacks: segment-records.ts)
    const formats = {
      before: { index: serializeRetrievalIndexV1(index), chunks: encodeChunks(chunks) },
      'whole records': { index: serializeRetrievalIndex(index), chunks: encodeChunks(chunks, { texts: false }) },
      after: { index: serializeRetrievalIndex(index), chunks: encodeSegmentRecords(chunks, index.chunks) },
    };
    for (const [name, files] of Object.entries(formats)) {
      mkdirSync(join(root, name));
      writeFileSync(join(root, name, INDEX_FILES.retrieval), files.index);
      writeFileSync(join(root, name, INDEX_FILES.chunks), files.chunks);
    }
    const runs = new Map<string, Timings[]>(Object.keys(formats).map((name) => [name, []]));
    for (let round = 0; round < rounds; round++) for (const name of Object.keys(formats)) runs.get(name)?.push(runChild(join(root, name)));
    return Object.entries(formats).map(([name, files]) => {
      const list = runs.get(name) ?? [];
      const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
      const [read, query] = [median(list.map((t) => t.read)), median(list.map((t) => t.query))];
      const total = median(list.map((t) => t.read + t.query));
      const cells = [mb(files.index.length), mb(Buffer.byteLength(files.chunks)), read.toFixed(0), query.toFixed(0), total.toFixed(0)];
      return `| ${size.toLocaleString('en')} | ${name} | ${cells.join(' | ')} |`;
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (values.child) {
  await child(values.child);
} else {
  const sizes = (values.sizes ?? '')
    .split(',')
    .map(Number)
    .filter((n) => n > 0);
  console.log('| chunks | files | retrieval.idx (MB) | chunks.json (MB) | read the segment (ms) | first query (ms) | total (ms) |');
  console.log('|---:|---|---:|---:|---:|---:|---:|');
  for (const size of sizes) for (const line of await measure(size, Number(values.rounds))) console.log(line);
}
