/**
 * Least-privilege grants of the table and the artefact bucket to a service function, with the one
 * acknowledgement each needs: a wildcard confined to the resource's own sub-resources (the table's
 * indexes, the bucket's objects), which a key-generating service cannot narrow further at deploy time.
 */
import { type CfnResource, Stack, Validations } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import type { ServiceFunction } from './service-function';

/**
 * How much of the table a function may touch: health probe only, API key look-ups only (`GetItem` on the
 * key items, partition keys `KEY#<lookup id>`), reads by key and query (no Scan: no read-only function
 * sweeps the table), or reads and writes.
 */
export type TableAccess = 'none' | 'describe' | 'keyLookup' | 'read' | 'readWrite';

/** Reads by key and by query, of the table and its indexes: `grantReadData` less Scan and the stream's reads. */
const READ_ACTIONS = [
  'dynamodb:BatchGetItem',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DescribeTable',
  'dynamodb:GetItem',
  'dynamodb:Query',
];

/** How much of the artefact bucket a function may touch. */
export type BucketAccess = 'none' | 'read' | 'readWrite';

/** Grants `access` to `table`; `describe` is the health check's DescribeTable alone. */
export function grantTable(table: Table, fn: ServiceFunction, access: TableAccess): void {
  if (access === 'none') return;
  if (access === 'describe') {
    const describeTable = new PolicyStatement({ actions: ['dynamodb:DescribeTable'], resources: [table.tableArn] });
    fn.role.addToPrincipalPolicy(describeTable);
    return;
  }
  if (access === 'keyLookup') {
    fn.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['dynamodb:GetItem'],
        resources: [table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['KEY#*'] } },
      }),
    );
    return;
  }
  if (access === 'read') {
    fn.role.addToPrincipalPolicy(new PolicyStatement({ actions: READ_ACTIONS, resources: [table.tableArn, `${table.tableArn}/index/*`] }));
  } else table.grantReadWriteData(fn.role);
  Validations.of(fn.role).acknowledge({
    id: `AwsSolutions-IAM5[Resource::${arnReference(table)}/index/*]`,
    reason: "Queries through the table's own global secondary indexes (gsi1..gsi3); no other table is reachable.",
  });
}

const OBJECT_ACTIONS: Record<Exclude<BucketAccess, 'none'>, string[]> = {
  read: ['s3:GetObject'],
  readWrite: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'],
};

/** Grants object-level `access` to `bucket` plus listing it; no bucket configuration actions. */
export function grantObjects(bucket: Bucket, fn: ServiceFunction, access: BucketAccess): void {
  if (access === 'none') return;
  const objects = new PolicyStatement({ actions: OBJECT_ACTIONS[access], resources: [bucket.arnForObjects('*')] });
  fn.role.addToPrincipalPolicy(objects);
  fn.role.addToPrincipalPolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }));
  Validations.of(fn.role).acknowledge({
    id: `AwsSolutions-IAM5[Resource::${arnReference(bucket)}/*]`,
    reason:
      "Object keys are generated per account and artefact at run time (functions/core/object-keys.ts); the grant covers this one bucket's objects.",
  });
}

/** How cdk-nag prints a reference to the ARN of the resource behind `construct` (`<LogicalId.Arn>`). */
function arnReference(construct: Table | Bucket): string {
  const resource = construct.node.defaultChild as CfnResource;
  return `<${Stack.of(construct).resolve(resource.logicalId)}.Arn>`;
}

/** Lets a function call Bedrock's embedding models (when the stage's `embedder` is `bedrock`). */
export function grantEmbeddings(fn: ServiceFunction): void {
  const region = Stack.of(fn).region;
  fn.role.addToPrincipalPolicy(
    new PolicyStatement({
      actions: ['bedrock:InvokeModel'],
      resources: [`arn:${Stack.of(fn).partition}:bedrock:${region}::foundation-model/amazon.titan-embed-*`],
    }),
  );
  Validations.of(fn.role).acknowledge({
    id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:bedrock:<AWS::Region>::foundation-model/amazon.titan-embed-*]`,
    reason: 'The Titan text embedding models, whichever version the stage configures.',
  });
}

/**
 * Lets a function rerank with one Bedrock model: `bedrock:Rerank` (an action on no resource) and
 * `bedrock:InvokeModel` on that model, a foundation model of the stack's region or an ARN as given.
 */
export function grantRerankModel(fn: ServiceFunction, model: string): void {
  const stack = Stack.of(fn);
  const resource = model.startsWith('arn:') ? model : `arn:${stack.partition}:bedrock:${stack.region}::foundation-model/${model}`;
  fn.role.addToPrincipalPolicy(new PolicyStatement({ actions: ['bedrock:Rerank'], resources: ['*'] }));
  fn.role.addToPrincipalPolicy(new PolicyStatement({ actions: ['bedrock:InvokeModel'], resources: [resource] }));
  Validations.of(fn.role).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason: 'bedrock:Rerank takes no resource; the reranking model itself is granted by name (bedrock:InvokeModel).',
  });
}

/** Cross-region inference profile ids: `us.`, `eu.`, `apac.`, `global.`, … before the model id. */
const INFERENCE_PROFILE = /^(us|us-gov|eu|apac|jp|au|ca|global)\.(.+)$/;

/**
 * Lets a function call one Bedrock model through Converse (`bedrock:InvokeModel`): a foundation model
 * in the stack's region; for an inference profile id, the profile and the model in the regions it
 * routes to; an ARN as given.
 */
export function grantAnswerModel(fn: ServiceFunction, model: string): void {
  const stack = Stack.of(fn);
  const profile = INFERENCE_PROFILE.exec(model);
  const resources = model.startsWith('arn:')
    ? [model]
    : profile
      ? [
          `arn:${stack.partition}:bedrock:${stack.region}:${stack.account}:inference-profile/${model}`,
          `arn:${stack.partition}:bedrock:*::foundation-model/${profile[2]}`,
        ]
      : [`arn:${stack.partition}:bedrock:${stack.region}::foundation-model/${model}`];
  fn.role.addToPrincipalPolicy(new PolicyStatement({ actions: ['bedrock:InvokeModel'], resources }));
  if (profile) {
    Validations.of(fn.role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:bedrock:*::foundation-model/${profile[2]}]`,
      reason: 'A cross-region inference profile serves the one configured model from any of its regions; the grant names that model only.',
    });
  }
}

/**
 * Lets a function that only reads the table count its callers' requests (`UpdateItem` on the per-account,
 * per-minute counters only: partition keys `A#<account>#RATE#<minute>`), for the per-account rate limit.
 */
export function grantRequestCounting(table: Table, fn: ServiceFunction): void {
  grantUpdatesOf(table, fn, 'A#*#RATE#*');
}

/**
 * Lets a function take and give back account tokens (`UpdateItem` on account items only: partition keys
 * `A#<account>#ACCOUNT`), as grounded answers do for the model tokens they spend.
 */
export function grantTokenBudget(table: Table, fn: ServiceFunction): void {
  grantUpdatesOf(table, fn, 'A#*#ACCOUNT');
}

/** `UpdateItem` on the items whose partition key matches `leadingKeys` only. */
function grantUpdatesOf(table: Table, fn: ServiceFunction, leadingKeys: string): void {
  fn.role.addToPrincipalPolicy(
    new PolicyStatement({
      actions: ['dynamodb:UpdateItem'],
      resources: [table.tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [leadingKeys] } },
    }),
  );
}

/** Lets the worker read the buckets a stage names for bulk import (objects and listing, nothing else). */
export function grantImportBuckets(fn: ServiceFunction, buckets: readonly string[]): void {
  if (buckets.length === 0) return;
  const arns = buckets.map((name) => `arn:${Stack.of(fn).partition}:s3:::${name}`);
  fn.role.addToPrincipalPolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: arns.map((arn) => `${arn}/*`) }));
  fn.role.addToPrincipalPolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: arns }));
  for (const name of buckets) {
    Validations.of(fn.role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::${name}/*]`,
      reason: 'Bulk import reads every object under a prefix the caller names, in a bucket the stage lists in importBuckets.',
    });
  }
}
