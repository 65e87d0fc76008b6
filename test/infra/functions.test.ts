/** Every function's defaults (runtime, tracing, logs, Powertools, environment) and least-privilege grants. */
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { environmentSchema } from '../../functions/config';
import type { Group } from '../../functions/http/route-spec';
import { SOURCE_MAP_NODE_OPTIONS } from '../../lib/constructs/bundling';
import { GROUP_ACCESS } from '../../lib/constructs/group-access';
import { actionsOfRole, logicalId, statementsOfRole, type Synthesized, synthesize } from './support/synth';

let synth: Synthesized;

beforeAll(() => {
  synth = synthesize();
});

/** The service's own functions: all but CDK's provider that copies the console build (a function CDK owns). */
const ownFunctions = (): Template => {
  const all = synth.template.findResources('AWS::Lambda::Function');
  return Template.fromJSON({
    Resources: Object.fromEntries(Object.entries(all).filter(([id]) => !id.startsWith('CustomCDKBucketDeployment'))),
  });
};

const fnOf = (group: Group) => {
  const fn = synth.stack.api.functions.get(group);
  if (!fn) throw new Error(`no ${group} function`);
  return fn;
};
const actionsOf = (group: Group): string[] => actionsOfRole(synth.template, logicalId(synth.stack, fnOf(group).role));

describe('every function', () => {
  it('runs Node.js 22 on ARM64 (the worker too: its native modules are installed for linux/arm64) with active tracing, sized memory and timeout', () => {
    ownFunctions().allResourcesProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      TracingConfig: { Mode: 'Active' },
      MemorySize: Match.anyValue(),
      Timeout: Match.anyValue(),
    });
  });

  it('carries the Powertools settings and the data locations', () => {
    const { stack } = synth;
    ownFunctions().allResourcesProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({
          POWERTOOLS_SERVICE_NAME: Match.stringLikeRegexp('^kmem-'),
          POWERTOOLS_METRICS_NAMESPACE: 'kmem',
          POWERTOOLS_LOG_LEVEL: stack.config.logLevel,
          NODE_OPTIONS: SOURCE_MAP_NODE_OPTIONS,
          KMEM_STAGE: stack.config.stage,
          KMEM_TABLE_NAME: { Ref: logicalId(stack, stack.data.table) },
          KMEM_BUCKET_NAME: { Ref: logicalId(stack, stack.data.bucket) },
          KMEM_QUEUE_URL: { Ref: logicalId(stack, stack.ingest.queueWorker.queue) },
        }),
      },
    });
  });

  it("sets only KMEM_ variables the functions' environment schema knows", () => {
    const known = new Set(Object.keys(environmentSchema.shape));
    const functions = ownFunctions().findResources('AWS::Lambda::Function');
    for (const fn of Object.values(functions)) {
      const names = Object.keys(fn.Properties.Environment.Variables as Record<string, unknown>);
      expect(names.filter((name) => name.startsWith('KMEM_') && !known.has(name))).toEqual([]);
    }
  });

  it('logs to its own log group with a retention', () => {
    for (const fn of synth.stack.api.functions.values()) {
      synth.template.hasResourceProperties('AWS::Lambda::Function', {
        Environment: { Variables: Match.objectLike({ POWERTOOLS_SERVICE_NAME: `kmem-${fn.node.id.toLowerCase()}` }) },
        LoggingConfig: { LogGroup: { Ref: logicalId(synth.stack, fn.logGroup) } },
      });
    }
    const retention = { RetentionInDays: synth.stack.config.logRetentionDays };
    synth.template.allResourcesProperties('AWS::Logs::LogGroup', retention);
  });

  it('grants no wildcard actions', () => {
    for (const fn of synth.stack.api.functions.values()) {
      const actions = actionsOfRole(synth.template, logicalId(synth.stack, fn.role));
      expect(actions.filter((action) => action.includes('*'))).toEqual([]);
    }
  });
});

describe('grants per group', () => {
  it('lets meta only probe the table (health) besides logs and traces', () => {
    expect(actionsOf('meta').filter((a) => !/^(logs|xray):/.test(a))).toEqual(['dynamodb:DescribeTable']);
  });

  it.each(['users', 'sessions', 'messages'] as const)('lets %s read and write the table', (group) => {
    const actions = actionsOf(group);
    const tableActions = ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:DeleteItem'];
    expect(actions).toEqual(expect.arrayContaining(tableActions));
  });

  it('lets users touch nothing but the table', () => {
    expect(actionsOf('users').filter((a) => /^(sqs|s3|kms):/.test(a))).toEqual([]);
  });

  it('lets sessions and messages ask the worker to build (conversation changes), and messages read the message index', () => {
    for (const group of ['sessions', 'messages'] as const) expect(actionsOf(group)).toContain('sqs:SendMessage');
    expect(actionsOf('sessions').filter((a) => /^s3:/.test(a))).toEqual([]);
    expect(actionsOf('messages').filter((a) => /^s3:/.test(a))).toContain('s3:GetObject');
    expect(actionsOf('messages').filter((a) => /^s3:(Put|Delete)/.test(a))).toEqual([]);
  });

  it('gives the users function no SQS send', () => {
    expect(actionsOf('users')).not.toContain('sqs:SendMessage');
  });

  it('scopes table statements to the table and its indexes', () => {
    const tableArn = { 'Fn::GetAtt': [logicalId(synth.stack, synth.stack.data.table), 'Arn'] };
    const dynamo = statementsOfRole(synth.template, logicalId(synth.stack, fnOf('users').role)).filter((s) =>
      JSON.stringify(s.Action).includes('dynamodb:'),
    );
    expect(dynamo).toHaveLength(1);
    expect(dynamo[0]?.Resource).toEqual([tableArn, { 'Fn::Join': ['', [tableArn, '/index/*']] }]);
  });

  it('matches the access table for every deployed group', () => {
    for (const [group, fn] of synth.stack.api.functions) {
      const actions = actionsOfRole(synth.template, logicalId(synth.stack, fn.role));
      const access = GROUP_ACCESS[group];
      expect(actions.includes('sqs:SendMessage'), `${group} send`).toBe(access.enqueue);
      expect(actions.includes('s3:GetObject'), `${group} s3 read`).toBe(access.bucket !== 'none');
      expect(actions.includes('dynamodb:PutItem'), `${group} table write`).toBe(access.table === 'readWrite');
    }
  });
});
