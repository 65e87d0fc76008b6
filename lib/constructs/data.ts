/**
 * The stored data: the single DynamoDB table (its key shape read from the functions' own table
 * definition, so the stack and the local runtime agree) and the artefact bucket with its access-log bucket.
 * Both are retained when the stack is deleted: they hold the accounts' data.
 */
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { GLOBAL_INDEXES, PARTITION_KEY, SORT_KEY, TTL_ATTRIBUTE } from '../../functions/adapters/dynamodb/table-definition';
import { objectKeys } from '../../functions/core/object-keys';
import type { StageConfig } from '../config';

/** Properties of `Data`. */
export interface DataProps {
  readonly config: StageConfig;
}

/** The table, the artefact bucket (bronze / silver / gold objects) and the bucket of its access logs. */
export class Data extends Construct {
  readonly table: Table;
  readonly bucket: Bucket;
  readonly accessLogs: Bucket;

  constructor(scope: Construct, id: string, props: DataProps) {
    super(scope, id);
    this.table = createTable(this, props.config);
    this.accessLogs = createAccessLogBucket(this, props.config);
    this.bucket = new Bucket(this, 'Artefacts', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      versioned: props.config.storage.versioning,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: 'artefacts/',
      removalPolicy: RemovalPolicy.RETAIN,
      // the console PUTs large files to presigned addresses (files/upload-url) from its own origin
      cors: [{ allowedMethods: [HttpMethods.PUT], allowedOrigins: ['*'], allowedHeaders: ['*'], maxAge: 3000 }],
      lifecycleRules: [
        { id: 'abort-incomplete-multipart-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
        // presigned uploads land here; files/create copies what it takes, so anything left is unclaimed
        { id: 'expire-unclaimed-uploads', prefix: objectKeys.incomingRoot, expiration: Duration.days(1) },
        // texts an import stages for its ingestion, which deletes them; left only when that ingestion never ran
        { id: 'expire-staged-texts', prefix: objectKeys.stagingRoot, expiration: Duration.days(7) },
        {
          id: 'expire-replaced-and-deleted-versions',
          noncurrentVersionExpiration: Duration.days(props.config.storage.noncurrentVersionDays),
          expiredObjectDeleteMarker: true,
        },
      ],
    });
  }
}

function createTable(scope: Construct, config: StageConfig): Table {
  const table = new Table(scope, 'Table', {
    partitionKey: { name: PARTITION_KEY, type: AttributeType.STRING },
    sortKey: { name: SORT_KEY, type: AttributeType.STRING },
    billingMode: BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: {
      pointInTimeRecoveryEnabled: config.storage.pointInTimeRecovery,
      ...(config.storage.pointInTimeRecovery ? { recoveryPeriodInDays: config.storage.pointInTimeRecoveryDays } : {}),
    },
    encryption: TableEncryption.AWS_MANAGED,
    timeToLiveAttribute: TTL_ATTRIBUTE,
    deletionProtection: config.storage.deletionProtection,
    removalPolicy: RemovalPolicy.RETAIN,
  });
  if (!config.storage.pointInTimeRecovery) {
    Validations.of(table).acknowledge({
      id: 'AwsSolutions-DDB3',
      reason: 'The stage turned point-in-time recovery off (storage.pointInTimeRecovery: false); docs/backups.md says what that gives up.',
    });
  }
  for (const index of GLOBAL_INDEXES) {
    table.addGlobalSecondaryIndex({
      indexName: index.name,
      partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
      sortKey: { name: index.sortKey, type: AttributeType.STRING },
      projectionType: ProjectionType.ALL,
    });
  }
  return table;
}

function createAccessLogBucket(scope: Construct, config: StageConfig): Bucket {
  const bucket = new Bucket(scope, 'AccessLogs', {
    // S3 server access logging can only deliver to a bucket encrypted with S3-managed keys.
    encryption: BucketEncryption.S3_MANAGED,
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
    enforceSSL: true,
    removalPolicy: RemovalPolicy.RETAIN,
    lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(config.storage.accessLogDays) }],
  });
  Validations.of(bucket).acknowledge({
    id: 'AwsSolutions-S1',
    reason: 'This is the server access log bucket of the artefact bucket; logging it would log its own log deliveries.',
  });
  return bucket;
}
