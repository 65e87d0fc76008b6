/**
 * An SQS-driven worker: the queue, its dead-letter queue (a message failing `maxReceiveCount` times moves
 * there), the worker function consuming batches with partial-failure reporting, and the alarms an
 * operator needs (dead letters, a backlog, the oldest message's age, worker errors).
 *
 * The worker is sized for the heavy steps that run there (OCR, ffmpeg, speech): memory, 15 minutes,
 * ephemeral storage. Without an entry (its handler not written yet) the queues and their alarms are
 * still created, so producers can be deployed and tested first.
 */
import { Duration, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Alarm, IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { StageConfig } from '../config';
import { addAlarm } from './alarms';
import { type FunctionEnvironment, ServiceFunction } from './service-function';

/**
 * The extraction thread's heap limit: a third of the function's memory, leaving the rest to the worker's
 * own heap, the file's bytes and the buffers outside either heap.
 */
function extractionMemoryMb(functionMemoryMb: number): number {
  return Math.floor(functionMemoryMb / 3);
}

/** Properties of a `QueueWorker`. */
export interface QueueWorkerProps {
  /** The worker's handler module; absent until it exists (then no function is created). */
  readonly entry?: string;
  /** The worker's environment; `KMEM_QUEUE_URL` (its own queue, for re-enqueueing) is added. */
  readonly environment: FunctionEnvironment;
  readonly config: StageConfig;
  readonly alarmAction?: IAlarmAction;
}

/** The queue, its dead-letter queue, the worker consuming it, and their alarms. */
export class QueueWorker extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly worker?: ServiceFunction;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: QueueWorkerProps) {
    super(scope, id);
    const { worker } = props.config;
    this.deadLetterQueue = new Queue(this, 'DeadLetters', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(worker.deadLetterRetentionDays),
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'Serverless-SQSRedrivePolicy',
      reason: 'This is the dead-letter queue itself: messages here wait for an operator (alarmed), they are not redriven further.',
    });
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(worker.queueRetentionDays),
      // AWS's advice for Lambda consumers: at least six times the function timeout.
      visibilityTimeout: Duration.minutes(worker.timeoutMinutes * 6),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: worker.maxReceiveCount },
    });
    if (props.entry) this.worker = this.createWorker(props.entry, props);
    this.createAlarms(props);
  }

  private createWorker(entry: string, props: QueueWorkerProps): ServiceFunction {
    const { worker } = props.config;
    const fn = new ServiceFunction(this, 'Worker', {
      name: 'worker',
      entry,
      description: 'kmem ingestion worker: extract, chunk, index, graph, budget, webhooks',
      memoryMb: worker.memoryMb,
      timeout: Duration.minutes(worker.timeoutMinutes),
      ephemeralStorageMb: worker.ephemeralStorageMb,
      reservedConcurrency: worker.reservedConcurrency,
      environment: {
        ...props.environment,
        KMEM_QUEUE_URL: this.queue.queueUrl,
        // the worker gives work up cleanly on the last receive before the dead-letter queue
        KMEM_WORK_MAX_ATTEMPTS: String(worker.maxReceiveCount),
        // Lambda has no pocketsphinx: speech goes to Amazon Transcribe
        KMEM_SPEECH: 'transcribe',
        // each file is extracted in a thread with its own heap limit, as on the local runtime: a file that
        // needs more fails alone, with its reason, instead of killing the invocation and its whole batch
        KMEM_EXTRACT_ISOLATION: 'thread',
        KMEM_EXTRACT_MEMORY_MB: String(extractionMemoryMb(worker.memoryMb)),
      },
      config: props.config,
    });
    fn.function.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: worker.batchSize,
        maxConcurrency: worker.maxConcurrency,
        reportBatchItemFailures: true,
      }),
    );
    this.queue.grantSendMessages(fn.role);
    fn.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['transcribe:StartTranscriptionJob', 'transcribe:GetTranscriptionJob', 'transcribe:DeleteTranscriptionJob'],
        resources: ['*'],
      }),
    );
    Validations.of(fn.role).acknowledge({
      id: 'AwsSolutions-IAM5[Action::transcribe:*]',
      reason: 'Amazon Transcribe jobs have no resource-level permissions for these actions.',
    });
    Validations.of(fn.function).acknowledge({
      id: 'Serverless-LambdaEventSourceMappingDestination',
      reason: 'SQS event sources take no on-failure destination; a record failing maxReceiveCount times moves to the dead-letter queue.',
    });
    return fn;
  }

  private createAlarms(props: QueueWorkerProps): void {
    const { alarms } = props.config;
    const period = Duration.minutes(alarms.periodMinutes);
    const evaluationPeriods = alarms.evaluationPeriods;
    const add = (id: string, spec: Parameters<typeof addAlarm>[2]): void => {
      this.alarms.push(addAlarm(this, id, spec, props.alarmAction));
    };
    add('DeadLettersAlarm', {
      metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum' }),
      threshold: 0,
      above: true,
      evaluationPeriods: 1,
      description: 'Ingestion messages failed repeatedly and wait in the dead-letter queue.',
    });
    add('QueueAgeAlarm', {
      metric: this.queue.metricApproximateAgeOfOldestMessage({ period, statistic: 'Maximum' }),
      threshold: alarms.queueAgeSeconds,
      evaluationPeriods,
      description: `The oldest ingestion message is ${alarms.queueAgeSeconds} s old or older: the worker is behind or failing.`,
    });
    add('QueueDepthAlarm', {
      metric: this.queue.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum' }),
      threshold: alarms.queueDepth,
      evaluationPeriods,
      description: `${alarms.queueDepth} or more ingestion messages are waiting.`,
    });
    if (!this.worker) return;
    add('WorkerErrorsAlarm', {
      metric: this.worker.function.metricErrors({ period, statistic: 'Sum' }),
      threshold: alarms.workerErrors,
      evaluationPeriods,
      description: `The ingestion worker failed ${alarms.workerErrors} or more times in ${alarms.periodMinutes} min.`,
    });
  }
}
