/**
 * The stage option `vectors.store` (decisions.md, "Running it"): with `s3vectors` the stack has one S3
 * Vectors vector bucket, names it to the query functions and the worker, and grants each exactly its
 * actions on that bucket's indexes; without it, no S3 Vectors resource and no s3vectors action anywhere.
 * The synth runs the cdk-nag packs (an unacknowledged finding fails it).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { VECTOR_TIER_ACTIONS } from '../../lib/constructs/vector-store';
import { logicalId, type Statement, type Synthesized, statementsOfRole, synthesize } from './support/synth';

let plain: Synthesized;
let tiered: Synthesized;

beforeAll(() => {
  plain = synthesize();
  // CloudFormation's schema validation too: the vector bucket's properties as CloudFormation defines them
  tiered = synthesize({ config: { vectors: { store: 's3vectors', tierThresholdChunks: 300_000 } }, cloudFormationValidation: true });
});

const vectorStatements = (synth: Synthesized, roleId: string): Statement[] =>
  statementsOfRole(synth.template, roleId).filter((s) => JSON.stringify(s.Action).includes('s3vectors:'));

function roleOf(synth: Synthesized, name: 'retrieval' | 'messages' | 'files' | 'memories' | 'worker'): string {
  const fn = name === 'worker' ? synth.stack.ingest.queueWorker.worker : synth.stack.api.functions.get(name);
  if (!fn) throw new Error(`no ${name} function`);
  return logicalId(synth.stack, fn.role);
}

describe('vector tier option', () => {
  it('makes no S3 Vectors resource and grants no s3vectors action by default', () => {
    expect(plain.stack.config.vectors).toEqual({ store: 'resident', tierThresholdChunks: 250_000 });
    const types = Object.values(plain.template.toJSON().Resources as Record<string, { Type: string }>).map((r) => r.Type);
    expect(types.filter((type) => type.startsWith('AWS::S3Vectors::'))).toEqual([]);
    expect(JSON.stringify(plain.template.toJSON())).not.toContain('s3vectors:');
    expect(JSON.stringify(plain.template.toJSON())).not.toContain('KMEM_VECTOR_BUCKET_NAME');
  });

  it('creates one encrypted vector bucket, retained with the stack', () => {
    tiered.template.resourceCountIs('AWS::S3Vectors::VectorBucket', 1);
    tiered.template.hasResource('AWS::S3Vectors::VectorBucket', {
      Properties: { EncryptionConfiguration: { SseType: 'AES256' } },
      DeletionPolicy: 'Retain',
    });
    tiered.template.hasOutput('VectorBucketName', {});
  });

  it('grants the query functions QueryVectors and GetVectors, the memories function DeleteIndex and ListIndexes, on this bucket only', () => {
    const bucketId = tiered.stack.getLogicalId(tiered.stack.vectors?.bucket ?? fail());
    const bucket = { 'Fn::GetAtt': [bucketId, 'VectorBucketArn'] };
    const indexes = { 'Fn::Join': ['', [bucket, '/index/*']] };
    const listing = { Effect: 'Allow', Action: 's3vectors:ListIndexes', Resource: [bucket, indexes] };
    for (const name of ['retrieval', 'messages'] as const) {
      const statements = vectorStatements(tiered, roleOf(tiered, name));
      expect(statements).toEqual([{ Effect: 'Allow', Action: ['s3vectors:GetVectors', 's3vectors:QueryVectors'], Resource: indexes }]);
    }
    const worker = vectorStatements(tiered, roleOf(tiered, 'worker'));
    expect(worker).toEqual([{ Effect: 'Allow', Action: [...VECTOR_TIER_ACTIONS.write].sort(), Resource: indexes }, listing]);
    expect(worker[0]?.Action).not.toContain('s3vectors:QueryVectors');
    // the memories function drops a deleted memory's index (every generation: listed by its prefix), and does nothing else with the tier
    expect(vectorStatements(tiered, roleOf(tiered, 'memories'))).toEqual([
      { Effect: 'Allow', Action: 's3vectors:DeleteIndex', Resource: indexes },
      listing,
    ]);
    expect(vectorStatements(tiered, roleOf(tiered, 'files'))).toEqual([]);
  });

  it('names the bucket and the threshold to the functions that use the tier, and to no other', () => {
    const functions = tiered.template.findResources('AWS::Lambda::Function');
    const withBucket = Object.values(functions).filter((fn) => fn.Properties.Environment?.Variables?.KMEM_VECTOR_BUCKET_NAME);
    expect(withBucket).toHaveLength(4); // retrieval, messages, memories (drops a deleted memory's index), the worker
    tiered.template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({
          KMEM_VECTOR_STORE: 's3vectors',
          KMEM_VECTOR_TIER_THRESHOLD_CHUNKS: '300000',
          KMEM_VECTOR_BUCKET_NAME: { 'Fn::Select': [1, { 'Fn::Split': ['/', Match.anyValue()] }] },
        }),
      },
    });
  });

  it('leaves no nag or schema finding in the validation report', () => {
    const report = JSON.parse(readFileSync(join(tiered.assembly.directory, 'validation-report.json'), 'utf8')) as {
      pluginReports: { pluginName: string; violations: { ruleName: string }[] }[];
    };
    expect(report.pluginReports.flatMap((plugin) => plugin.violations.map((v) => `${plugin.pluginName}: ${v.ruleName}`))).toEqual([]);
    for (const pack of tiered.packs) expect(pack.validateScope(tiered.app).violations.map((v) => v.ruleName)).toEqual([]);
  });

  it('refuses an unknown store', () => {
    expect(() => synthesize({ config: { vectors: { store: 'opensearch' } } })).toThrow(/vectors\.store/);
  });
});

function fail(): never {
  throw new Error('no vector bucket');
}
