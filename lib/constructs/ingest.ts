/**
 * Ingestion: the queue the API enqueues work on, its dead-letter queue, and the worker that extracts,
 * chunks, indexes, builds graphs, updates budgets and delivers webhooks, with read/write access to the
 * table and the artefact bucket.
 */
import type { IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import type { StageConfig } from '../config';
import { grantEmbeddings, grantImportBuckets, grantObjects, grantTable } from './grants';
import { QueueWorker } from './queue-worker';
import type { Data } from './data';
import { embeddingEnvironment, importEnvironment, sharedEnvironment } from './environment';

/** Properties of `Ingest`. */
export interface IngestProps {
  readonly config: StageConfig;
  readonly data: Data;
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
      environment: { ...sharedEnvironment(props.config, props.data), ...embeddingEnvironment(props.config), ...importEnvironment(props.config) },
      config: props.config,
      alarmAction: props.alarmAction,
    });
    const worker = this.queueWorker.worker;
    if (worker) {
      grantTable(props.data.table, worker, 'readWrite');
      grantObjects(props.data.bucket, worker, 'readWrite');
      if (props.config.embedder === 'bedrock') grantEmbeddings(worker);
      grantImportBuckets(worker, props.config.importBuckets);
    }
  }
}
