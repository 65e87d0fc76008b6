/**
 * The vector tier against the S3 Vectors double (functions/local/s3vectors-double/), through kmem's adapter
 * and the real SDK client: how fast a memory's vectors go in (PutVectors in batches of 500), and how long a
 * query takes (p50/p99), with the double's own search time (an exact scan of every vector) reported apart
 * from the client's, so the protocol's and the SDK's share shows. The double runs in this process.
 *
 *   npm run bench:s3vectors -- [--vectors 1000000] [--dim 384] [--queries 100] [--top-k 10]
 *   npm run bench:s3vectors -- --fused [--vectors 1000000] [--batch 50000] [--queries 100] [--top-k 10] [--resident]
 *
 * With `--fused`, kmem end to end instead (./s3vectors-fused.ts): ingestion through the worker's build into
 * a tiered memory, and the fused query of the retrieval use case.
 *
 * Three query kinds: no filter; an exact store filter (fileIds keeping 10% of the vectors); and a filter
 * the store cannot answer exactly (a source-key prefix inside a name, keeping ~1%), which the adapter
 * answers by over-fetching and post-filtering. These are the double's figures, not AWS's: AWS publishes
 * ~100 ms warm queries and 2,500 vectors a second of writes per index (docs/scale.md).
 */
import '../functions/local/local-env'; // first: Powertools metrics off, as on the local runtime
import { parseArgs } from 'node:util';
import { vectorTierFromSettings } from '../functions/adapters/providers/vector-tier-from-settings';
import { vectorIndexName } from '../functions/core/vector-tier/index-names';
import type { TierVector, VectorConditions } from '../functions/core/vector-tier/ports';
import { startS3VectorsDouble } from '../functions/local/s3vectors-double';
import { machineFacts } from './support/report';
import { fusedBench, type FusedOptions } from './s3vectors-fused';

const BUCKET = 'kmem-bench-vectors';
const FILES = 1_000;
/** Vectors generated and put at once (a few PutVectors batches). */
const CHUNK = 5_000;

interface Options extends FusedOptions {
  dim: number;
  fused: boolean;
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      vectors: { type: 'string', default: '1000000' },
      dim: { type: 'string', default: '384' },
      queries: { type: 'string', default: '100' },
      'top-k': { type: 'string', default: '10' },
      fused: { type: 'boolean', default: false },
      batch: { type: 'string', default: '50000' },
      resident: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const positive = (name: string, text: string): number => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer, got '${text}'`);
    return value;
  };
  return {
    vectors: positive('vectors', values.vectors),
    dim: positive('dim', values.dim),
    queries: positive('queries', values.queries),
    topK: Math.min(100, positive('top-k', values['top-k'])),
    fused: values.fused,
    batch: positive('batch', values.batch),
    resident: values.resident,
  };
}

/** A seeded generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function vectorsFrom(start: number, count: number, dim: number, next: () => number): TierVector[] {
  return Array.from({ length: count }, (_, n) => {
    const i = start + n;
    const fileId = `file-${i % FILES}`;
    const values = new Float32Array(dim);
    for (let d = 0; d < dim; d++) values[d] = next() * 2 - 1;
    return {
      key: `${fileId}#${i}`,
      values,
      attributes: { fileId, fileType: 'text', sourceKey: `s3://corpus/${fileId}/part-${i % 7}.txt`, metadata: { team: `t${i % 5}` } },
    };
  });
}

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

async function main(): Promise<void> {
  const opts = options();
  if (opts.fused) {
    const lines = await fusedBench(opts);
    const header = ['# bench:s3vectors --fused (kmem end to end, a tiered memory, the local S3 Vectors double)', '', ...machineFacts()];
    const command = `- command: npm run bench:s3vectors -- ${process.argv.slice(2).join(' ')}`;
    const rss = `- rss after: ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`;
    console.log([...header, command, rss, ...lines].join('\n'));
    return;
  }
  const double = await startS3VectorsDouble({ buckets: [BUCKET] });
  const settings = { store: 's3vectors' as const, bucketName: BUCKET, thresholdChunks: 1, endpoint: double.endpoint };
  const tier = vectorTierFromSettings(settings, { region: 'us-east-1' });
  if (!tier) throw new Error('no tier');
  const ref = { accountId: 'bench', memoryId: 'bench-memory' };
  await tier.ensureIndex(ref, opts.dim);

  const next = random(42);
  const putStarted = performance.now();
  for (let start = 0; start < opts.vectors; start += CHUNK) {
    await tier.put(ref, vectorsFrom(start, Math.min(CHUNK, opts.vectors - start), opts.dim, next));
  }
  const putSeconds = (performance.now() - putStarted) / 1000;
  const stored = double.sizeOf(BUCKET, vectorIndexName(ref));

  const kinds: [string, VectorConditions | undefined][] = [
    ['no filter', undefined],
    ['fileIds (10%, exact in the store)', { fileIds: Array.from({ length: FILES / 10 }, (_, i) => `file-${i * 10}`) }],
    ['sourceKeyPrefix inside a name (1.1%, post-filtered)', { sourceKeyPrefix: 's3://corpus/file-12' }],
  ];
  const rows: string[] = [];
  for (const [name, conditions] of kinds) {
    const client: number[] = [];
    const search: number[] = [];
    let hits = 0;
    let incomplete = 0;
    for (let q = 0; q < opts.queries; q++) {
      const vector = Array.from({ length: opts.dim }, () => next() * 2 - 1);
      const before = double.searchMs.length;
      const started = performance.now();
      const answer = await tier.query(ref, { vector, topK: opts.topK, ...(conditions ? { conditions } : {}) });
      client.push(performance.now() - started);
      search.push(double.searchMs.slice(before).reduce((a, b) => a + b, 0));
      hits += answer.hits.length;
      if (!answer.complete) incomplete++;
    }
    const overhead = client.map((ms, i) => ms - (search[i] ?? 0));
    rows.push(
      `| ${name} | ${percentile(client, 50).toFixed(1)} | ${percentile(client, 99).toFixed(1)} | ${percentile(search, 50).toFixed(1)} | ${percentile(search, 99).toFixed(1)} | ${percentile(overhead, 50).toFixed(1)} | ${(hits / opts.queries).toFixed(1)} | ${incomplete} |`,
    );
  }
  await double.close();

  console.log(
    [
      '# bench:s3vectors (the vector tier against the local S3 Vectors double)',
      '',
      ...machineFacts(),
      `- command: npm run bench:s3vectors -- ${process.argv.slice(2).join(' ')}`,
      `- vectors: ${opts.vectors} of ${opts.dim} dimensions (float32, cosine), ${FILES} files; ${opts.queries} queries a kind, topK ${opts.topK}`,
      `- rss after: ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`,
      '',
      '| put | vectors stored | seconds | vectors/s | PutVectors calls |',
      '|---|---:|---:|---:|---:|',
      `| ${opts.vectors} vectors in batches of 500 | ${stored} | ${putSeconds.toFixed(1)} | ${(opts.vectors / putSeconds).toFixed(0)} | ${double.calls.PutVectors ?? 0} |`,
      '',
      '| query | client p50 ms | client p99 ms | double search p50 ms | double search p99 ms | protocol + SDK p50 ms | hits/query | incomplete |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      ...rows,
      '',
      `QueryVectors calls: ${double.calls.QueryVectors ?? 0} (a post-filtered query takes several; "incomplete": queries whose widening stopped at its bound before topK).`,
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
