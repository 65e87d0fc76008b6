/**
 * The vector tier's test setting (test/contract/vector-tier/): the S3 Vectors double on 127.0.0.1 and two
 * sets of deps over stores in memory, one with the tier on (at a tiny threshold) and one resident, for
 * twin memories or accounts whose answers are compared.
 */
import { startS3VectorsDouble, type S3VectorsDouble } from '../../functions/local/s3vectors-double';
import { memoryConfig, memoryDeps, type MemoryTestDeps } from './memory';

export interface TierTwins {
  double: S3VectorsDouble;
  tiered: MemoryTestDeps;
  resident: MemoryTestDeps;
}

export async function startTierTwins(bucket: string, thresholdChunks: number): Promise<TierTwins> {
  const double = await startS3VectorsDouble({ buckets: [bucket] });
  const common = { KMEM_GRAPH_WORD_VECTORS: 'false' };
  const tiered = memoryDeps(
    memoryConfig({
      ...common,
      KMEM_VECTOR_STORE: 's3vectors',
      KMEM_VECTOR_BUCKET_NAME: bucket,
      KMEM_VECTOR_TIER_THRESHOLD_CHUNKS: String(thresholdChunks),
      KMEM_S3VECTORS_ENDPOINT: double.endpoint,
    }),
  );
  const resident = memoryDeps(memoryConfig(common));
  // loading the word vectors takes seconds on a busy machine: once here, not inside the first test's time
  for (const deps of [tiered, resident]) await deps.worker.indexing.embedder()?.embed(['warm up']);
  return { double, tiered, resident };
}
