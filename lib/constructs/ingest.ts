/**
 * Ingestion: the queue the API enqueues work on, its dead-letter queue, and the worker that extracts,
 * chunks, indexes, builds graphs, updates budgets and delivers webhooks, with read/write access to the
 * table and the artefact bucket.
 */
import type { IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import { Rule, RuleTargetInput, Schedule } from 'aws-cdk-lib/aws-events';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import type { WorkMessage } from '../../functions/core/work';
import type { StageConfig } from '../config';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { grantAnswerModel, grantEmbeddings, grantImportBuckets, grantObjects, grantTable } from './grants';
import { QueueWorker } from './queue-worker';
import type { Data } from './data';
import type { VectorStore } from './vector-store';
import { answerEnvironment, embeddingEnvironment, importEnvironment, sharedEnvironment } from './environment';

/** Properties of `Ingest`. */
export interface IngestProps {
  readonly config: StageConfig;
  readonly data: Data;
  /** The S3 Vectors bucket of large memories, when the stage has one. */
  readonly vectors?: VectorStore;
  /** The worker's handler module (functions/worker/handler.ts). */
  readonly workerEntry: string;
  readonly alarmAction?: IAlarmAction;
}

/** The ingestion queue and worker. */
export class Ingest extends Construct {
  readonly queueWorker: QueueWorker;

  constructor(scope: Construct, id: string, props: IngestProps) {
    super(scope, id);
    this.queueWorker = new QueueWorker(this, 'Ingestion', {
      entry: props.workerEntry,
      environment: {
        ...sharedEnvironment(props.config, props.data),
        ...embeddingEnvironment(props.config),
        ...importEnvironment(props.config),
        ...props.vectors?.environment(),
        // session summaries are written by the answer model when the stage has one
        ...answerEnvironment(props.config),
      },
      config: props.config,
      alarmAction: props.alarmAction,
    });
    const worker = this.queueWorker.worker;
    if (worker) {
      grantTable(props.data.table, worker, 'readWrite');
      grantObjects(props.data.bucket, worker, 'readWrite');
      if (props.config.embedder === 'bedrock') grantEmbeddings(worker);
      grantImportBuckets(worker, props.config.importBuckets);
      props.vectors?.grant(worker, 'write');
      this.grantSummaryModel(props.config);
    }
    if (props.config.webResyncSchedule) this.scheduleWebResync(props.config.webResyncSchedule);
  }

  /** With an answer model, the worker may invoke it for session summaries (its tokens are charged through the table). */
  private grantSummaryModel(config: StageConfig): void {
    const worker = this.queueWorker.worker;
    const answer = config.answerModel;
    if (!worker || answer.provider === 'none') return;
    if (answer.provider === 'bedrock') grantAnswerModel(worker, answer.model);
    if (answer.provider === 'openai' && answer.apiKeySecret) {
      Secret.fromSecretNameV2(this, 'SummaryModelKey', answer.apiKeySecret).grantRead(worker.role);
    }
  }

  /** The stage's re-sync schedule: a rule that puts one `web.resync-due` message on the work queue each tick. */
  private scheduleWebResync(expression: string): void {
    const work = { kind: 'web.resync-due' } satisfies WorkMessage;
    new Rule(this, 'WebResync', {
      description: 'kmem: sync every ready web source (website, sitemap, crawl) of every account again',
      schedule: Schedule.expression(expression),
      // a tick EventBridge cannot deliver lands beside the work that failed (alarmed), not nowhere
      targets: [
        new SqsQueue(this.queueWorker.queue, {
          message: RuleTargetInput.fromObject(work),
          deadLetterQueue: this.queueWorker.deadLetterQueue,
        }),
      ],
    });
  }
}
