/**
 * The one stack a user deploys into their account: data (table, bucket), the alarm topic, ingestion
 * (queue, dead letters, worker), the API (one function per endpoint group, routes from the catalog),
 * observability (alarms, dashboard) and the web console (S3 + CloudFront, in front of the API too). Each concern is a construct of its own file.
 */
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { RouteSpec } from '../../functions/http/route-spec';
import type { StageConfig } from '../config';
import { declareFunctionBundles, functionBundle } from '../bundling/function-code';
import { AlarmTopic } from './alarm-topic';
import { ConsoleSite } from './console-site';
import { type FunctionName, handlerEntry } from '../paths';
import { Api } from './api';
import { Data } from './data';
import { Ingest } from './ingest';
import { Observability } from './observability';
import { VectorStore } from './vector-store';

/** Properties of `KmemStack`. */
export interface KmemStackProps extends StackProps {
  readonly config: StageConfig;
  /** The route catalog to deploy (functions/catalog.ts). */
  readonly routes: readonly RouteSpec[];
  /** Where each function's handler module is; defaults to functions/<name>/handler.ts. */
  readonly entryOf?: (name: FunctionName) => string;
}

/** The whole kmem service of one stage. */
export class KmemStack extends Stack {
  readonly config: StageConfig;
  readonly data: Data;
  /** The S3 Vectors bucket, when the stage's `vectors.store` is `s3vectors`. */
  readonly vectors?: VectorStore;
  readonly alarmTopic?: AlarmTopic;
  readonly ingest: Ingest;
  readonly api: Api;
  readonly observability: Observability;
  readonly console: ConsoleSite;

  constructor(scope: Construct, id: string, props: KmemStackProps) {
    super(scope, id, props);
    const { config, routes } = props;
    this.config = config;
    const entryOf = props.entryOf ?? handlerEntry;
    // every function this stack creates, so one esbuild pass bundles them all (lib/bundling/function-code.ts)
    const functions: FunctionName[] = ['worker', ...new Set(routes.map((route) => route.group))];
    declareFunctionBundles(
      this,
      functions.map((name) => functionBundle(name, entryOf(name))),
    );
    this.data = new Data(this, 'Data', { config });
    this.vectors = config.vectors.store === 's3vectors' ? new VectorStore(this, 'Vectors', config) : undefined;
    this.alarmTopic = config.alarms.topic ? new AlarmTopic(this, 'AlarmTopic') : undefined;
    const alarmAction = this.alarmTopic?.action;
    this.ingest = new Ingest(this, 'Ingest', {
      config,
      data: this.data,
      vectors: this.vectors,
      workerEntry: entryOf('worker'),
      alarmAction,
    });
    const ingestion = this.ingest.queueWorker;
    this.api = new Api(this, 'Api', { config, data: this.data, vectors: this.vectors, queue: ingestion.queue, routes, entryOf });
    this.observability = new Observability(this, 'Observability', {
      config,
      api: this.api,
      routes,
      ingestion,
      alarmAction,
    });
    this.console = new ConsoleSite(this, 'Console', {
      api: this.api.restApi,
      accessLogDays: config.storage.accessLogDays,
      logRetention: config.logRetentionDays,
    });
    this.addOutputs();
  }

  private addOutputs(): void {
    const output = (id: string, value: string, description: string): CfnOutput => new CfnOutput(this, id, { value, description });
    output('ApiUrl', this.api.restApi.url, 'Base URL of the API (stage included)');
    output('ConsoleUrl', this.console.url, 'The web console (its API is the same origin)');
    output('ConsoleApiUrl', this.console.apiUrl, "The API through CloudFront, on the console's origin");
    output('TableName', this.data.table.tableName, 'The single table (kmem accounts create NAME --table ...)');
    output('BucketName', this.data.bucket.bucketName, 'The artefact bucket');
    output('QueueUrl', this.ingest.queueWorker.queue.queueUrl, 'The ingestion queue');
    output('DashboardName', this.observability.dashboard.dashboardName, 'The CloudWatch dashboard');
    if (this.vectors) output('VectorBucketName', this.vectors.bucketName, 'The S3 Vectors bucket of large memories');
    if (this.alarmTopic) output('AlarmTopicArn', this.alarmTopic.topic.topicArn, 'Subscribe here to receive alarms');
  }
}
