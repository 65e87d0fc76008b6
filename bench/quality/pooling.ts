/**
 * Pooling and storage variants of the offline embedder, semantic side alone and fused, on the dev
 * splits: plain mean vs SIF weights (a = 1e-4, 3e-5), with and without hashed vectors for words the
 * table lacks, and int8 vs float32 rows. Numbers quoted in bench/quality/README.md come from here.
 *
 *   npx tsx bench/quality/pooling.ts [--data ../shared/bench-data]
 */
import { resolve } from 'node:path';
import { rankChunks, type RetrievalMode } from '../../functions/engine/retrieval/rank';
import { buildRetrievalIndex } from '../../functions/engine/retrieval/retrieval-index';
import type { VectorEncoding } from '../../functions/engine/retrieval/vector-segment';
import { WordVectorEmbedder, type WordVectorEmbedderOptions } from '../../functions/engine/retrieval/word-vector-embedder';
import { loadWordVectors } from '../../functions/adapters/embeddings/word-vector-loader';
import { benchmarkChunks } from './corpus';
import { BENCHMARK_NAMES, loadBenchmark } from './datasets';
import { averageMetrics, evaluationDepth, queryMetrics } from './evaluate';

const VARIANTS: Array<{ label: string; options: WordVectorEmbedderOptions; encoding: VectorEncoding }> = [
  { label: 'mean (no weights)', options: { sifA: 1e9, oovWeight: 0 }, encoding: 'int8' },
  { label: 'SIF a=1e-4', options: { sifA: 1e-4, oovWeight: 0 }, encoding: 'int8' },
  { label: 'SIF a=3e-5', options: { sifA: 3e-5, oovWeight: 0 }, encoding: 'int8' },
  { label: 'SIF a=3e-5 + hashed unknown words (default)', options: {}, encoding: 'int8' },
  { label: 'default, float32 rows', options: {}, encoding: 'float32' },
];

async function main(): Promise<void> {
  const at = process.argv.indexOf('--data');
  const dataDir = resolve(at >= 0 ? (process.argv[at + 1] ?? '') : resolve(import.meta.dirname, '../../../shared/bench-data'));
  const table = loadWordVectors();
  console.log('| pooling | benchmark | semantic alone | fused (default params) |\n|---|---|---|---|');
  for (const name of BENCHMARK_NAMES) {
    const benchmark = loadBenchmark(dataDir, name);
    const chunks = benchmarkChunks(benchmark);
    for (const variant of VARIANTS) {
      const embedder = new WordVectorEmbedder(table, variant.options);
      const index = await buildRetrievalIndex(chunks, { embedder, vectorEncoding: variant.encoding });
      const vectors = await embedder.embed(benchmark.queries.map((query) => query.text));
      const run = (mode: RetrievalMode): string => {
        const metrics = averageMetrics(
          benchmark.queries.map((query, position) => {
            const request = { query: query.text, queryVector: vectors[position], sentenceEncoder: embedder, mode };
            const hits = rankChunks(index, { ...request, limit: 3 * evaluationDepth(benchmark) });
            return queryMetrics(
              benchmark,
              query,
              hits.map((hit) => index.chunks.fileIds[hit.ordinal] ?? ''),
            );
          }),
        );
        return Object.entries(metrics)
          .map(([metric, value]) => `${metric} ${value.toFixed(3)}`)
          .join(', ');
      };
      console.log(`| ${variant.label} | ${name} | ${run('semantic')} | ${run('fused')} |`);
    }
  }
}

await main();
