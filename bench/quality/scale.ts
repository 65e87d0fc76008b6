/**
 * Build and query cost of the retrieval library at ~100,000 chunks, in process (no HTTP).
 *
 *   npx tsx bench/quality/scale.ts [--data ../shared/bench-data] [--chunks 100000] [--queries 300]
 *
 * The chunks of all three dev corpora are repeated until the target count; each repeat drops every
 * k-th word (k varies with the repeat), so repeats are not near-duplicates of one another (that would
 * only exercise de-duplication) while keeping realistic vocabulary and lengths. Measures: index build
 * (lexical segments, embeddings, HNSW), serialised size and load time, then `retrieve` with topK=10
 * and facts=true for the dev queries, warm, with acceleration on and off: mean, p50 and p99 latency.
 */
import { resolve } from 'node:path';
import { buildHnsw } from '../../functions/engine/retrieval/hnsw';
import { deserializeRetrievalIndex, serializeRetrievalIndex } from '../../functions/engine/retrieval/index-format';
import { buildRetrievalIndex, type RetrievalChunk, type RetrievalIndex } from '../../functions/engine/retrieval/retrieval-index';
import { retrieve } from '../../functions/engine/retrieval/retrieve';
import type { WordVectorEmbedder } from '../../functions/engine/retrieval/word-vector-embedder';
import { loadWordVectorEmbedder } from '../../functions/adapters/embeddings/word-vector-loader';
import { benchmarkChunks } from './corpus';
import { BENCHMARK_NAMES, loadBenchmark } from './datasets';

function argument(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

function thinned(text: string, every: number): string {
  return text
    .split(' ')
    .filter((_, position) => position % every !== every - 1)
    .join(' ');
}

function scaledChunks(base: RetrievalChunk[], target: number): RetrievalChunk[] {
  const out: RetrievalChunk[] = [];
  for (let copy = 0; out.length < target; copy++) {
    for (const chunk of base) {
      if (out.length >= target) break;
      const text = copy === 0 ? chunk.text : thinned(chunk.text, 3 + (copy % 5));
      out.push({ ...chunk, id: `${copy}:${chunk.id}`, fileId: `${copy}:${chunk.fileId}`, text });
    }
  }
  return out;
}

function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? Number.NaN;
}

async function latency(index: RetrievalIndex, queries: string[], embedder: WordVectorEmbedder): Promise<string> {
  for (const query of queries.slice(0, 20)) await retrieve(index, { query, topK: 10, facts: true }, { embedder });
  const times: number[] = [];
  for (const query of queries) {
    const started = performance.now();
    await retrieve(index, { query, topK: 10, facts: true }, { embedder });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((sum, time) => sum + time, 0) / times.length;
  return `mean ${mean.toFixed(2)} ms, p50 ${percentile(times, 0.5).toFixed(2)} ms, p99 ${percentile(times, 0.99).toFixed(2)} ms`;
}

async function main(): Promise<void> {
  const dataDir = resolve(argument('--data', resolve(import.meta.dirname, '../../../shared/bench-data')));
  const target = Number(argument('--chunks', '100000'));
  const benchmarks = BENCHMARK_NAMES.map((name) => loadBenchmark(dataDir, name));
  const named = benchmarks.flatMap((benchmark) =>
    benchmarkChunks(benchmark).map((chunk) => ({
      ...chunk,
      id: `${benchmark.name}:${chunk.id}`,
      fileId: `${benchmark.name}:${chunk.fileId}`,
    })),
  );
  const chunks = scaledChunks(named, target);
  const queries = benchmarks.flatMap((benchmark) => benchmark.queries.map((query) => query.text));
  const sample = queries.filter(
    (_, position) => position % Math.max(1, Math.floor(queries.length / Number(argument('--queries', '300')))) === 0,
  );
  const embedder = loadWordVectorEmbedder();
  let started = performance.now();
  const index = await buildRetrievalIndex(chunks, { embedder });
  const buildSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  const accelerated: RetrievalIndex = { ...index, ann: index.vectors ? buildHnsw(index.vectors) : null };
  const hnswSeconds = (performance.now() - started) / 1000;
  const bytes = serializeRetrievalIndex(accelerated);
  started = performance.now();
  const loaded = deserializeRetrievalIndex(bytes);
  const loadMs = performance.now() - started;
  console.log(`| ${chunks.length.toLocaleString('en')} chunks | value |\n|---|---|`);
  console.log(`| build: lexical segments + embeddings | ${buildSeconds.toFixed(1)} s |`);
  console.log(`| build: HNSW (m 16, efConstruction 100) | ${hnswSeconds.toFixed(1)} s |`);
  console.log(`| serialised index (with HNSW) | ${(bytes.length / 1024 / 1024).toFixed(1)} MiB, loads in ${loadMs.toFixed(0)} ms |`);
  console.log(`| retrieve topK=10 facts=true, acceleration on (${sample.length} queries) | ${await latency(loaded, sample, embedder)} |`);
  console.log(`| retrieve topK=10 facts=true, acceleration off (exact vectors) | ${await latency(index, sample, embedder)} |`);
}

await main();
