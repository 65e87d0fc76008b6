/**
 * Ingestion in the stack: the queue and its dead-letter queue, their alarms, and (once
 * functions/worker/handler.ts exists) the worker wired to the queue with its grants. The worker construct
 * itself is also checked with a stand-in handler in queue-worker.test.ts.
 */
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { actionsOfRole, logicalId, statementsOfRole, type Synthesized, synthesize } from './support/synth';

let synth: Synthesized;

beforeAll(() => {
  synth = synthesize();
});

const ingestion = () => synth.stack.ingest.queueWorker;

describe('queues', () => {
  it('redrives a message to the dead-letter queue after 5 receives', () => {
    const dlqId = logicalId(synth.stack, ingestion().deadLetterQueue);
    synth.template.hasResourceProperties('AWS::SQS::Queue', {
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] }, maxReceiveCount: 5 },
      VisibilityTimeout: 6 * 15 * 60,
    });
  });

  it('encrypts both queues with SQS-managed keys and denies requests without TLS', () => {
    synth.template.resourceCountIs('AWS::SQS::Queue', 2);
    synth.template.allResourcesProperties('AWS::SQS::Queue', { SqsManagedSseEnabled: true });
    const policies = synth.template.findResources('AWS::SQS::QueuePolicy', {
      Properties: {
        PolicyDocument: {
          Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
        },
      },
    });
    expect(Object.keys(policies)).toHaveLength(2);
  });

  it('alarms on dead letters, the oldest message age and the queue depth', () => {
    const dlqName = { 'Fn::GetAtt': [logicalId(synth.stack, ingestion().deadLetterQueue), 'QueueName'] };
    const queueName = { 'Fn::GetAtt': [logicalId(synth.stack, ingestion().queue), 'QueueName'] };
    const { alarms } = synth.stack.config;
    const expectAlarm = (metricName: string, name: unknown, threshold: number, operator: string): void => {
      synth.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'AWS/SQS',
        MetricName: metricName,
        Dimensions: [{ Name: 'QueueName', Value: name }],
        Threshold: threshold,
        ComparisonOperator: operator,
        TreatMissingData: 'notBreaching',
      });
    };
    expectAlarm('ApproximateNumberOfMessagesVisible', dlqName, 0, 'GreaterThanThreshold');
    expectAlarm('ApproximateAgeOfOldestMessage', queueName, alarms.queueAgeSeconds, 'GreaterThanOrEqualToThreshold');
    expectAlarm('ApproximateNumberOfMessagesVisible', queueName, alarms.queueDepth, 'GreaterThanOrEqualToThreshold');
  });
});

describe('worker (functions/worker/handler.ts)', () => {
  const worker = () => {
    const fn = ingestion().worker;
    if (!fn) throw new Error('no worker function although its handler exists');
    return fn;
  };

  it('consumes the queue with partial batch failures', () => {
    synth.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [logicalId(synth.stack, ingestion().queue), 'Arn'] },
      FunctionName: { Ref: logicalId(synth.stack, worker().function) },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('is sized for OCR, media and speech work', () => {
    synth.template.hasResourceProperties('AWS::Lambda::Function', {
      MemorySize: 3008,
      Timeout: 900,
      EphemeralStorage: { Size: 4096 },
      Environment: { Variables: Match.objectLike({ POWERTOOLS_SERVICE_NAME: 'kmem-worker' }) },
    });
  });

  it('reads and writes the table and the bucket, consumes and re-enqueues', () => {
    const actions = actionsOfRole(synth.template, logicalId(synth.stack, worker().role));
    expect(actions).toEqual(
      expect.arrayContaining([
        'dynamodb:PutItem',
        'dynamodb:Query',
        's3:GetObject',
        's3:PutObject',
        'sqs:ReceiveMessage',
        'sqs:DeleteMessage',
        'sqs:SendMessage',
      ]),
    );
  });

  it('alarms on worker errors', () => {
    synth.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: logicalId(synth.stack, worker().function) } }],
    });
  });
});

describe('bulk import buckets', () => {
  it('lets the worker read and list exactly the buckets the stage names, and tells the functions', () => {
    const named = synthesize({ config: { importBuckets: ['corp-docs'] } }); // throws on an unacknowledged nag finding
    const worker = named.stack.ingest.queueWorker.worker;
    if (!worker) throw new Error('no worker');
    const statements = statementsOfRole(named.template, logicalId(named.stack, worker.role));
    const text = JSON.stringify(statements);
    expect(text).toContain(':s3:::corp-docs/*');
    const listing = statements.filter((statement) => statement.Action === 's3:ListBucket');
    expect(listing.some((statement) => JSON.stringify(statement.Resource).includes(':s3:::corp-docs"'))).toBe(true);
    named.template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ KMEM_IMPORT_BUCKETS: 'corp-docs' }) },
    });
    expect(JSON.stringify(synth.template.toJSON())).not.toContain('corp-docs');
  });
});

describe('scheduled re-sync of web sources', () => {
  it('puts one web.resync-due message on the work queue on the stage schedule, and nothing without one', () => {
    const scheduled = synthesize({ config: { webResyncSchedule: 'rate(1 day)' } }); // throws on an unacknowledged nag finding
    const queueId = logicalId(scheduled.stack, scheduled.stack.ingest.queueWorker.queue);
    const dlqId = logicalId(scheduled.stack, scheduled.stack.ingest.queueWorker.deadLetterQueue);
    scheduled.template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 day)',
      State: 'ENABLED',
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [queueId, 'Arn'] },
          Input: JSON.stringify({ kind: 'web.resync-due' }),
          DeadLetterConfig: { Arn: { 'Fn::GetAtt': [dlqId, 'Arn'] } },
        }),
      ],
    });
    const policies = JSON.stringify(scheduled.template.findResources('AWS::SQS::QueuePolicy'));
    expect(policies).toContain('events.amazonaws.com');
    expect(policies).toContain('sqs:SendMessage');
    synth.template.resourceCountIs('AWS::Events::Rule', 0);
  });

  it('refuses a schedule EventBridge would not take, naming the option', () => {
    expect(() => synthesize({ config: { webResyncSchedule: 'every day' } })).toThrow(
      /webResyncSchedule: an EventBridge schedule expression/,
    );
  });
});
