/**
 * The QueueWorker construct on its own, with a stand-in handler, so its worker wiring is checked before
 * (and independently of) the real functions/worker/handler.ts.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { stageConfig } from '../../lib/config';
import { QueueWorker } from '../../lib/constructs/queue-worker';
import { actionsOfRole, FIXTURE_WORKER, logicalId } from './support/synth';

const WORKER_ENVIRONMENT = { KMEM_STAGE: 'test', KMEM_TABLE_NAME: 'kmem-test', KMEM_BUCKET_NAME: 'kmem-test-artefacts' };

let stack: Stack;
let worker: QueueWorker;
let template: Template;

beforeAll(() => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false });
  stack = new Stack(app, 'QueueWorkerTest');
  const config = stageConfig('test', { worker: { batchSize: 7, maxConcurrency: 3 } });
  worker = new QueueWorker(stack, 'Ingestion', { entry: FIXTURE_WORKER, environment: WORKER_ENVIRONMENT, config });
  template = Template.fromStack(stack);
});

describe('QueueWorker', () => {
  it('maps the queue to the worker with partial batch failures and the configured batching', () => {
    const fn = worker.worker?.function;
    expect(fn).toBeDefined();
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [logicalId(stack, worker.queue), 'Arn'] },
      FunctionName: fn && { Ref: logicalId(stack, fn) },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BatchSize: 7,
      ScalingConfig: { MaximumConcurrency: 3 },
    });
  });

  it('sizes the worker for heavy work and tells it its queue', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      MemorySize: 3008,
      Timeout: 900,
      EphemeralStorage: { Size: 4096 },
      TracingConfig: { Mode: 'Active' },
      Environment: {
        Variables: Match.objectLike({
          KMEM_QUEUE_URL: { Ref: logicalId(stack, worker.queue) },
          POWERTOOLS_SERVICE_NAME: 'kmem-worker',
        }),
      },
    });
  });

  it('extracts each file in a thread with a heap limit of a third of the function memory (a file that needs more fails alone)', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      MemorySize: 3008,
      Environment: { Variables: Match.objectLike({ KMEM_EXTRACT_ISOLATION: 'thread', KMEM_EXTRACT_MEMORY_MB: '1002' }) },
    });
  });

  it('lets the worker consume and re-enqueue, run Transcribe jobs, and nothing beyond', () => {
    const role = worker.worker?.role;
    expect(role).toBeDefined();
    const actions = role ? actionsOfRole(template, logicalId(stack, role)) : [];
    expect(actions).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:SendMessage']));
    expect(actions.filter((action) => !/^(sqs|logs|xray|transcribe):/.test(action))).toEqual([]);
    expect(actions.filter((action) => action.startsWith('transcribe:')).sort()).toEqual([
      'transcribe:DeleteTranscriptionJob',
      'transcribe:GetTranscriptionJob',
      'transcribe:StartTranscriptionJob',
    ]);
  });

  it('alarms on dead letters, queue age, queue depth and worker errors', () => {
    expect(worker.alarms).toHaveLength(4);
    template.hasResourceProperties('AWS::CloudWatch::Alarm', { Namespace: 'AWS/Lambda', MetricName: 'Errors' });
  });

  it('keeps only the queues and their alarms without an entry', () => {
    const bare = new QueueWorker(new Stack(new App(), 'Bare'), 'Ingestion', {
      environment: {},
      config: stageConfig('test'),
    });
    expect(bare.worker).toBeUndefined();
    expect(bare.alarms).toHaveLength(3);
  });
});
