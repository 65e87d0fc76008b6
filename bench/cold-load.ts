/**
 * What a cold container spends before its first answer, per part, in a fresh process each time (cold
 * JIT, as a new Lambda): parsing one segment's `retrieval.idx` (format 2, compact, or format 1, whose
 * writer test/support keeps), parsing its `chunks.json`, and the first query (payload texts included).
 * The index is the service's own (buildRetrievalIndex with the offline word-vector embedder) over
 * generated 40-word chunks in 10-chunk files, as bench/write-cost.ts makes them.
 *
 *   npm run bench:cold-load [-- --sizes 2000,20000,100000 --rounds 3]
 *
 * Prints a markdown table of medians over the rounds (formats alternate within a round).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadWordVectorEmbedder } from '../functions/adapters/embeddings/word-vector-loader';
import { decodeChunks, encodeChunks, type StoredChunk } from '../functions/core/stored-index/chunks';
import { buildRetrievalIndex, deserializeRetrievalIndex, retrieve, serializeRetrievalIndex } from '../functions/engine';
import { serializeRetrievalIndexV1 } from '../test/support/legacy-index-formats';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    sizes: { type: 'string', default: '2000,20000,100000' },
    rounds: { type: 'string', default: '3' },
    child: { type: 'string' },
  },
});

const VOCABULARY =
  'tide moon owl night rye bread salt glacier valley river stone wind harbour cell protein gene dose trial patient risk blood brain heart liver lung bone muscle virus cancer immune signal pathway receptor enzyme'.split(
    ' ',
  );
const QUERY = 'owl3 night7 glacier valley river12';

function textOf(seed: number, words: number): string {
  let state = seed * 2654435761;
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    out.push(`${VOCABULARY[state % VOCABULARY.length]}${state % 97}`);
  }
  return out.join(' ');
}

function chunksOf(size: number): StoredChunk[] {
  return Array.from({ length: size }, (_, n) => {
    const fileId = `file${Math.floor(n / 10)}`;
    const text = textOf(n, 40);
    return { id: `${fileId}:${n % 10}`, fileId, text, start: (n % 10) * 1000, end: (n % 10) * 1000 + text.length, title: fileId };
  });
}

interface Timings {
  index: number;
  chunks: number;
  query: number;
}

/** In the child: load one index and its chunks, answer one query, print the times (ms). */
async function child(folder: string, file: string): Promise<void> {
  const embedder = loadWordVectorEmbedder();
  // plain Uint8Arrays, as the object store answers (a Buffer's slice() is a view, not a copy)
  const indexBytes = new Uint8Array(readFileSync(join(folder, file)));
  const chunkBytes = new Uint8Array(readFileSync(join(folder, 'chunks.json')));
  const started = performance.now();
  const index = deserializeRetrievalIndex(indexBytes);
  const afterIndex = performance.now();
  const records = decodeChunks(chunkBytes);
  const afterChunks = performance.now();
  const outcome = await retrieve(index, { query: QUERY, topK: 10 }, { embedder });
  const done = performance.now();
  if (outcome.payload.length === 0 || records.length !== index.chunks.ids.length) throw new Error('the cold query found nothing');
  const timings: Timings = { index: afterIndex - started, chunks: afterChunks - afterIndex, query: done - afterChunks };
  console.log(JSON.stringify(timings));
}

function runChild(folder: string, file: string): Timings {
  const result = spawnSync(process.execPath, [...process.execArgv, process.argv[1] ?? '', '--child', folder, file], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`child failed: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').pop() ?? '{}') as Timings;
}

const median = (list: number[]): number => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0;

async function measure(size: number, rounds: number): Promise<string[]> {
  const folder = mkdtempSync(join(tmpdir(), 'kmem-cold-'));
  try {
    const chunks = chunksOf(size);
    const index = await buildRetrievalIndex(chunks, { embedder: loadWordVectorEmbedder() });
    const formats = { 'format 1': serializeRetrievalIndexV1(index), 'format 2': serializeRetrievalIndex(index) };
    for (const [name, bytes] of Object.entries(formats)) writeFileSync(join(folder, name), bytes);
    writeFileSync(join(folder, 'chunks.json'), encodeChunks(chunks));
    const runs = new Map<string, Timings[]>(Object.keys(formats).map((name) => [name, []]));
    for (let round = 0; round < rounds; round++) for (const name of Object.keys(formats)) runs.get(name)?.push(runChild(folder, name));
    const chunkMb = (readFileSync(join(folder, 'chunks.json')).length / 1e6).toFixed(1);
    return Object.entries(formats).map(([name, bytes]) => {
      const list = runs.get(name) ?? [];
      const [parse, records, query] = [
        median(list.map((t) => t.index)),
        median(list.map((t) => t.chunks)),
        median(list.map((t) => t.query)),
      ];
      const total = median(list.map((t) => t.index + t.chunks + t.query));
      const cells = [(bytes.length / 1e6).toFixed(1), parse.toFixed(0), chunkMb, records.toFixed(0), query.toFixed(0), total.toFixed(0)];
      return `| ${size.toLocaleString('en')} | ${name} | ${cells.join(' | ')} |`;
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

if (values.child) {
  await child(values.child, positionals[0] ?? '');
} else {
  const sizes = (values.sizes ?? '')
    .split(',')
    .map(Number)
    .filter((n) => n > 0);
  console.log('| chunks | retrieval.idx | size (MB) | parse (ms) | chunks.json (MB) | parse (ms) | first query (ms) | total (ms) |');
  console.log('|---:|---|---:|---:|---:|---:|---:|---:|');
  for (const size of sizes) for (const line of await measure(size, Number(values.rounds))) console.log(line);
}
