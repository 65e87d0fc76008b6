/**
 * The vector tier's settings (docs/scale.md): `resident` keeps every memory's vectors in its index
 * segments; `s3vectors` moves a memory's vectors to the Amazon S3 Vectors bucket named here once it holds
 * more than the threshold's chunks. The endpoint is for the local double (functions/local/s3vectors-double/);
 * absent on AWS.
 */
import { z } from 'zod';
import { ConfigError } from './config-error';

const positiveInt = z.coerce.number().int().positive();

/** Variables of the vectors section of ./sections.ts (none required on Lambda: without the option the stack sets none). */
export const vectorTierSettings = {
  shape: {
    KMEM_VECTOR_STORE: z.enum(['resident', 's3vectors']).default('resident'),
    /** S3 Vectors bucket names: 3-63 lowercase letters, digits and dashes, a letter or digit at each end. */
    KMEM_VECTOR_BUCKET_NAME: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/, 'an S3 Vectors bucket name')
      .optional(),
    KMEM_VECTOR_TIER_THRESHOLD_CHUNKS: positiveInt.default(250_000),
    KMEM_S3VECTORS_ENDPOINT: z.url().optional(),
  },
};

type VectorTierVariables = z.output<z.ZodObject<typeof vectorTierSettings.shape>>;

/** Where a memory's vectors live: in its segments, or in S3 Vectors past a size. */
export type VectorTierSettings =
  | { readonly store: 'resident' }
  | {
      readonly store: 's3vectors';
      readonly bucketName: string;
      /** Chunks above which a memory's vectors move to the bucket (and below which they move back). */
      readonly thresholdChunks: number;
      /** The local double's address; absent on AWS. */
      readonly endpoint?: string;
    };

/** The typed settings; `s3vectors` without a bucket is a configuration error naming the variable. */
export function vectorTierOf(e: VectorTierVariables): VectorTierSettings {
  if (e.KMEM_VECTOR_STORE === 'resident') return { store: 'resident' };
  if (!e.KMEM_VECTOR_BUCKET_NAME) {
    throw new ConfigError('invalid configuration: KMEM_VECTOR_BUCKET_NAME: required when KMEM_VECTOR_STORE is s3vectors');
  }
  return {
    store: 's3vectors',
    bucketName: e.KMEM_VECTOR_BUCKET_NAME,
    thresholdChunks: e.KMEM_VECTOR_TIER_THRESHOLD_CHUNKS,
    endpoint: e.KMEM_S3VECTORS_ENDPOINT,
  };
}
