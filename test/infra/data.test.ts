/** The stored data: the single table's shape (from the functions' table definition) and the buckets. */
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { GLOBAL_INDEXES, PARTITION_KEY, SORT_KEY, TTL_ATTRIBUTE } from '../../functions/adapters/dynamodb/table-definition';
import { logicalId, type Synthesized, synthesize } from './support/synth';

let synth: Synthesized;

beforeAll(() => {
  synth = synthesize();
});

describe('table', () => {
  it('has string pk/sk keys, on-demand billing, PITR, SSE and TTL', () => {
    synth.template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: PARTITION_KEY, KeyType: 'HASH' },
        { AttributeName: SORT_KEY, KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: 35 },
      SSESpecification: { SSEEnabled: true },
      TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      DeletionProtectionEnabled: true,
    });
  });

  it('makes point-in-time recovery and bucket versioning stage options (backups: docs/backups.md)', () => {
    const options = { storage: { pointInTimeRecoveryDays: 7, noncurrentVersionDays: 3 } };
    const shorter = synthesize({ config: options }).template;
    shorter.hasResourceProperties('AWS::DynamoDB::Table', {
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: 7 },
    });
    shorter.hasResourceProperties('AWS::S3::Bucket', {
      VersioningConfiguration: { Status: 'Enabled' },
      LifecycleConfiguration: { Rules: Match.arrayWith([Match.objectLike({ NoncurrentVersionExpiration: { NoncurrentDays: 3 } })]) },
    });
    const off = synthesize({ config: { storage: { pointInTimeRecovery: false, versioning: false } } }).template;
    off.hasResourceProperties('AWS::DynamoDB::Table', { PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: false } });
    const artefacts = Object.values(off.findResources('AWS::S3::Bucket')).filter((bucket) => bucket.Properties?.CorsConfiguration);
    expect(artefacts).toHaveLength(1);
    expect(artefacts[0]?.Properties?.VersioningConfiguration).toBeUndefined();
  });

  it('has the three GSIs of the table definition, string keys, projection ALL', () => {
    const expected = GLOBAL_INDEXES.map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' },
        { AttributeName: index.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    }));
    expect(expected.map((index) => index.IndexName)).toEqual(['gsi1', 'gsi2', 'gsi3']);
    synth.template.hasResourceProperties('AWS::DynamoDB::Table', { GlobalSecondaryIndexes: expected });
    const indexKeys = GLOBAL_INDEXES.flatMap((index) => [index.partitionKey, index.sortKey]);
    const keyNames = [PARTITION_KEY, SORT_KEY, ...indexKeys];
    synth.template.hasResourceProperties('AWS::DynamoDB::Table', {
      AttributeDefinitions: Match.arrayEquals(keyNames.map((name) => ({ AttributeName: name, AttributeType: 'S' }))),
    });
  });

  it('is retained when the stack is deleted', () => {
    synth.template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });
});

describe('buckets', () => {
  const encryptedAndPrivate = {
    BucketEncryption: {
      ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
    },
    PublicAccessBlockConfiguration: {
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    },
  };

  it('encrypts and blocks public access on every bucket', () => {
    synth.template.resourceCountIs('AWS::S3::Bucket', 4); // artefacts and their logs; the console's and its logs
    synth.template.allResourcesProperties('AWS::S3::Bucket', encryptedAndPrivate);
  });

  it('versions the artefact bucket, logs its access and expires what it should', () => {
    const logsId = logicalId(synth.stack, synth.stack.data.accessLogs);
    synth.template.hasResourceProperties('AWS::S3::Bucket', {
      VersioningConfiguration: { Status: 'Enabled' },
      LoggingConfiguration: { DestinationBucketName: { Ref: logsId }, LogFilePrefix: 'artefacts/' },
      LifecycleConfiguration: {
        Rules: Match.arrayWith([
          Match.objectLike({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' }),
          Match.objectLike({ Prefix: 'incoming/', ExpirationInDays: 1, Status: 'Enabled' }),
          Match.objectLike({ Prefix: 'staging/', ExpirationInDays: 7, Status: 'Enabled' }),
          Match.objectLike({ NoncurrentVersionExpiration: { NoncurrentDays: 30 }, Status: 'Enabled' }),
        ]),
      },
    });
  });

  it('denies requests without TLS on every bucket', () => {
    const policies = synth.template.findResources('AWS::S3::BucketPolicy', {
      Properties: {
        PolicyDocument: {
          Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
        },
      },
    });
    expect(Object.keys(policies)).toHaveLength(4);
  });

  it('retains every bucket when the stack is deleted', () => {
    const buckets = synth.template.findResources('AWS::S3::Bucket');
    for (const bucket of Object.values(buckets)) expect(bucket.DeletionPolicy).toBe('Retain');
  });
});
