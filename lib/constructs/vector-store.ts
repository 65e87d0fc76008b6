/**
 * The vector tier of large memories (stage option `vectors.store: s3vectors`): an Amazon S3 Vectors vector
 * bucket holding one vector index per memory (and one per account's message index), the settings that
 * name it to the functions, and the grants: the worker writes and drops indexes, the query functions
 * query. Every grant is scoped to this bucket's indexes (`<bucket ARN>/index/*`); index names are derived
 * from the account and memory ids at run time (functions/core/vector-tier.ts), hence the wildcard.
 */
import { Fn, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { CfnVectorBucket } from 'aws-cdk-lib/aws-s3vectors';
import { Construct } from 'constructs';
import type { StageConfig } from '../config';
import type { FunctionEnvironment, ServiceFunction } from './service-function';

/** What a function does with the tier: query it (retrieval, message search), maintain it (the worker), or drop a deleted memory's index (memories). */
export type VectorTierAccess = 'query' | 'write' | 'drop';

/**
 * The S3 Vectors actions each access needs on the bucket's indexes. Queries with a metadata filter or
 * returning metadata need GetVectors beside QueryVectors (AWS's QueryVectors reference). The worker
 * creates, inspects and drops indexes, writes and deletes vectors in batches, and lists and reads them
 * back to repair a crashed move.
 */
export const VECTOR_TIER_ACTIONS: Readonly<Record<VectorTierAccess, readonly string[]>> = {
  query: ['s3vectors:QueryVectors', 's3vectors:GetVectors'],
  drop: ['s3vectors:DeleteIndex'],
  write: [
    's3vectors:CreateIndex',
    's3vectors:GetIndex',
    's3vectors:DeleteIndex',
    's3vectors:PutVectors',
    's3vectors:GetVectors',
    's3vectors:DeleteVectors',
    's3vectors:ListVectors',
  ],
};

/**
 * What an access that drops indexes also needs on the bucket itself: listing its indexes by a memory's
 * name prefix finds every generation of the memory's index (docs/scale.md). ListIndexes names the vector
 * bucket, so it is granted on the bucket's ARN (and, in case AWS authorises it per index, on its indexes).
 */
const VECTOR_BUCKET_ACTIONS: Readonly<Record<VectorTierAccess, readonly string[]>> = {
  query: [],
  drop: ['s3vectors:ListIndexes'],
  write: ['s3vectors:ListIndexes'],
};

/** The vector bucket of a stage whose `vectors.store` is `s3vectors`. */
export class VectorStore extends Construct {
  readonly bucket: CfnVectorBucket;
  /** The bucket's name (the last part of its ARN; CloudFormation names it). */
  readonly bucketName: string;

  constructor(
    scope: Construct,
    id: string,
    private readonly config: StageConfig,
  ) {
    super(scope, id);
    this.bucket = new CfnVectorBucket(this, 'Bucket', { encryptionConfiguration: { sseType: 'AES256' } });
    // like the table and the artefact bucket: it holds accounts' data (rebuildable, but not cheaply)
    this.bucket.applyRemovalPolicy(RemovalPolicy.RETAIN);
    this.bucketName = Fn.select(1, Fn.split('/', this.bucket.attrVectorBucketArn));
  }

  /** The `KMEM_VECTOR_*` settings of a function that uses the tier. */
  environment(): FunctionEnvironment {
    return {
      KMEM_VECTOR_STORE: 's3vectors',
      KMEM_VECTOR_BUCKET_NAME: this.bucketName,
      KMEM_VECTOR_TIER_THRESHOLD_CHUNKS: String(this.config.vectors.tierThresholdChunks),
    };
  }

  /** Grants `access` on this bucket's indexes, and nothing on any other bucket or on the bucket itself. */
  grant(fn: ServiceFunction, access: VectorTierAccess): void {
    const indexes = `${this.bucket.attrVectorBucketArn}/index/*`;
    fn.role.addToPrincipalPolicy(new PolicyStatement({ actions: [...VECTOR_TIER_ACTIONS[access]], resources: [indexes] }));
    const listing = VECTOR_BUCKET_ACTIONS[access];
    if (listing.length > 0)
      fn.role.addToPrincipalPolicy(new PolicyStatement({ actions: [...listing], resources: [this.bucket.attrVectorBucketArn, indexes] }));
    Validations.of(fn.role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${Stack.of(this).resolve(this.bucket.logicalId)}.VectorBucketArn>/index/*]`,
      reason:
        "One vector index per memory and per account's message index, named from their ids at run time (functions/core/vector-tier.ts); the grant covers this one vector bucket's indexes.",
    });
  }
}
