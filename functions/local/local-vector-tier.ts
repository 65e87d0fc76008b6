/**
 * The vector tier on the local runtime (docs/scale.md): with `KMEM_VECTOR_STORE=s3vectors` and no
 * `KMEM_S3VECTORS_ENDPOINT`, the runtime starts the S3 Vectors double (./s3vectors-double/) on 127.0.0.1,
 * with the configured vector bucket, and points the adapter at it. Its vectors live in the process's
 * memory: a restarted runtime starts with an empty double.
 */
import type { Config, Settings } from '../config';
import { startS3VectorsDouble } from './s3vectors-double';

export interface LocalVectorTier {
  /** The settings that point the adapter at the double. */
  readonly settings: Settings;
  close(): Promise<void>;
}

/** The double, when the settings ask for the tier without an endpoint; undefined otherwise. */
export async function startLocalVectorTier(config: Config, log: (line: string) => void): Promise<LocalVectorTier | undefined> {
  const tier = config.vectorTier;
  if (tier.store !== 's3vectors' || tier.endpoint) return undefined;
  const double = await startS3VectorsDouble({ buckets: [tier.bucketName] });
  log(`vector tier: the S3 Vectors double on ${double.endpoint} (bucket ${tier.bucketName}, in memory)`);
  return { settings: { KMEM_S3VECTORS_ENDPOINT: double.endpoint }, close: () => double.close() };
}
