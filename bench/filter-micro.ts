/**
 * In-process micro-benchmark of filtered retrieval: the ranking `GET /memory/` runs (`retrieveFromIndex`,
 * topK 10, facts) over one stored index version, unfiltered and under filters keeping 1% and 10% of the
 * chunks, interleaved query by query (each query runs every variant, in rotating order), so load on the
 * machine weighs on all variants alike. No HTTP, no store reads: what the filter costs in the ranking.
 *
 *   npx tsx bench/filter-micro.ts --index DIR [--data DIR] [--queries 300] [--top-k 10]
 *
 * DIR holds a version's `retrieval.idx` and `chunks.json` (plain, or as s3rver keeps objects, e.g. a
 * `bench:latency --reuse` dir's `s3/kmem-artefacts/gold/<account>/memories/<memory>/index/<version>`).
 * Filters: `files` keeps the chunks of the first 1% / 10% of the files (runs of consecutive ordinals, as
 * a fileIDs or metadata filter keeps them), `scattered` every 100th / 10th chunk (the worst case for the
 * kernel's runs). Also prints what working a filter's allowed set out costs (once per index version and
 * filter: the service keeps it, core/stored-index/allowed-chunk-cache.ts), and checks every filtered
 * answer holds only allowed chunks and is full.
 */
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadWordVectorEmbedder } from '../functions/adapters/embeddings/word-vector-loader';
import type { StoredChunk } from '../functions/core/stored-index/chunks';
import { chunkPredicate } from '../functions/core/stored-index/search-filter';
import { retrieveFromIndex } from '../functions/core/use-cases/retrieve-memory';
import { type AllowedSet, allowedSet, deserializeRetrievalIndex, type RetrievalIndex } from '../functions/engine';
import { loadClaims } from './latency/corpus';
import { summarise } from './latency/stats';

interface Variant {
  name: string;
  allowed?: AllowedSet;
  /** ms to work the allowed set out from the chunk records (the first query of a filter). */
  setupMs?: number;
  samples: number[];
  /** Answers with topK items. */
  full: number;
}

function storedObject(dir: string, name: string): Buffer {
  const plain = join(dir, name);
  return readFileSync(existsSync(plain) ? plain : `${plain}._S3rver_object`);
}

function variants(index: RetrievalIndex, chunks: readonly StoredChunk[]): Variant[] {
  const size = index.chunks.ids.length;
  const byId = new Map(chunks.map((chunk) => [chunk.id, chunk] as const));
  const records = index.chunks.ids.map((id) => byId.get(id));
  const fileIds = [...new Set(records.flatMap((chunk) => (chunk ? [chunk.fileId] : [])))];
  const out: Variant[] = [{ name: 'unfiltered', samples: [], full: 0 }];
  for (const share of [0.01, 0.1]) {
    const percent = `${Math.round(share * 100)}%`;
    const kept = fileIds.slice(0, Math.max(1, Math.round(share * fileIds.length)));
    const started = performance.now();
    const matches = chunkPredicate({ fileIds: kept }, undefined);
    const files = allowedSet(size, (ordinal) => {
      const chunk = records[ordinal];
      return chunk !== undefined && matches(chunk);
    });
    const setupMs = performance.now() - started;
    out.push({ name: `files ${percent} (${kept.length} files, ${files.count} chunks)`, allowed: files, setupMs, samples: [], full: 0 });
    const step = Math.round(1 / share);
    const scattered = allowedSet(size, (ordinal) => ordinal % step === 0);
    out.push({ name: `scattered ${percent} (${scattered.count} chunks)`, allowed: scattered, samples: [], full: 0 });
  }
  return out;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      index: { type: 'string' },
      data: { type: 'string', default: resolve(import.meta.dirname, '../../shared/bench-data/scifact') },
      queries: { type: 'string', default: '300' },
      'top-k': { type: 'string', default: '10' },
    },
  });
  if (!values.index) throw new Error('usage: npx tsx bench/filter-micro.ts --index DIR [--data DIR] [--queries 300] [--top-k 10]');
  const topK = Number(values['top-k']);
  const index = deserializeRetrievalIndex(new Uint8Array(storedObject(values.index, 'retrieval.idx')));
  const chunks = JSON.parse(storedObject(values.index, 'chunks.json').toString('utf8')) as StoredChunk[];
  const embedder = loadWordVectorEmbedder();
  const claims = loadClaims(resolve(values.data));
  const all = variants(index, chunks);
  const loaded = { retrieval: index, graph: null };
  const run = (variant: Variant, query: string) =>
    retrieveFromIndex(
      loaded,
      { query, topK, facts: true, assisted: false },
      { embedder, ...(variant.allowed ? { allowed: variant.allowed } : {}) },
    );
  for (const claim of claims.slice(0, 30)) for (const variant of all) await run(variant, claim); // warm-up
  const count = Number(values.queries);
  let checked = 0;
  for (let i = 0; i < count; i++) {
    const query = claims[(30 + i) % claims.length] ?? '';
    for (let j = 0; j < all.length; j++) {
      const variant = all[(i + j) % all.length] as Variant;
      const started = performance.now();
      const outcome = await run(variant, query);
      variant.samples.push(performance.now() - started);
      if (outcome.items.length >= topK) variant.full++;
      const allowed = variant.allowed;
      if (!allowed) continue;
      const ordinals = outcome.items.flatMap((item) => item.ordinals);
      if (ordinals.some((ordinal) => allowed.mask[ordinal] !== 1)) throw new Error(`${variant.name}: a chunk not allowed came back`);
      checked++;
    }
  }
  const base = summarise({ samples: all[0]?.samples ?? [], wallMs: 1 });
  const lines = [
    `## filtered retrieval in process (${index.chunks.ids.length.toLocaleString('en')} chunks, topK ${topK}, facts, ${count} queries interleaved)`,
    '',
    `- machine: ${cpus().length} cpus, 1-minute load average ${loadavg()[0]?.toFixed(1)} at the end`,
    `- ${checked} filtered answers checked: only allowed chunks`,
    '',
    '| variant | p50 ms | p95 ms | p99 ms | mean ms | p50 × unfiltered | p99 × unfiltered | full answers | allowed set once, ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...all.map((variant) => {
      const s = summarise({ samples: variant.samples, wallMs: 1 });
      const cells = [s.p50, s.p95, s.p99, s.mean].map((ms) => ms.toFixed(2));
      const setup = variant.setupMs === undefined ? '' : variant.setupMs.toFixed(1);
      return `| ${variant.name} | ${cells.join(' | ')} | ${(s.p50 / base.p50).toFixed(2)} | ${(s.p99 / base.p99).toFixed(2)} | ${variant.full}/${count} | ${setup} |`;
    }),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
