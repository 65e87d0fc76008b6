/**
 * The local stores: dynalite (DynamoDB API, LevelDB on disk) and s3rver (S3 API, files on disk) on
 * loopback, on a thread of their own in this process, with their data under the data directory so it
 * survives restarts. Creates the table and bucket on first start.
 *
 * Neither store authenticates anyone, so they listen on 127.0.0.1 whatever KMEM_HOST says (the API is
 * what a network may reach), and their data lives in directories only the owner can open.
 */
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { CreateTableCommand, DescribeTableCommand, type DynamoDBClient, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { PutBucketCorsCommand } from '@aws-sdk/client-s3';
import { createS3Client } from '../adapters/aws-clients';
import { GLOBAL_INDEXES, PARTITION_KEY, SORT_KEY } from '../adapters/dynamodb/table-definition';
import type { Config } from '../config';

/** dynalite and s3rver run on a thread of their own (see store-thread.mjs). */
const STORE_THREAD = new URL('./store-thread.mjs', import.meta.url);

export interface LocalStores {
  dynamodbEndpoint: string;
  s3Endpoint: string;
  /** Requests the stores have served since they started, by operation (`DynamoDB PutItem`, `S3 GET`, ...). */
  requestCounts(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

/** Where the stores listen: loopback only, always. */
const STORE_HOST = '127.0.0.1';

/** Makes `path` (and missing parents) a directory only its owner can list, enter or change. */
export function privateDirectory(path: string): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  chmodSync(path, 0o700);
}

export interface StoreOptions {
  dataDir: string;
  bucketName: string;
  /** Called when the stores' thread fails after it started; default: say so and exit (nothing works without it). */
  onFailure?: (error: Error) => void;
}

export async function startStores(options: StoreOptions): Promise<LocalStores> {
  const dynamoDir = join(options.dataDir, 'dynamodb');
  const s3Dir = join(options.dataDir, 's3');
  for (const dir of [options.dataDir, dynamoDir, s3Dir]) privateDirectory(dir);
  const thread = new Worker(STORE_THREAD, { workerData: { dynamoDir, s3Dir, host: STORE_HOST, bucketName: options.bucketName } });
  let ready: Extract<StoreThreadMessage, { kind: 'ready' }>;
  try {
    ready = await nextMessage(thread, 'ready');
  } catch (error) {
    await thread.terminate();
    throw error;
  }
  const onFailure = options.onFailure ?? exitWithReason;
  thread.on('error', (error) => onFailure(new Error(`the local stores stopped: ${error.message}`, { cause: error })));
  return {
    dynamodbEndpoint: `http://${STORE_HOST}:${ready.dynamoPort}`,
    s3Endpoint: `http://${STORE_HOST}:${ready.s3Port}`,
    requestCounts: async () => {
      thread.postMessage({ kind: 'requests' });
      return (await nextMessage(thread, 'requests')).counts;
    },
    close: async () => {
      thread.postMessage({ kind: 'close' });
      await nextMessage(thread, 'closed').catch(() => undefined);
      await thread.terminate();
    },
  };
}

/**
 * Browsers (the console) PUT large files straight to presigned addresses of the bucket, from the runtime's
 * own origin: that origin, under the names of loopback the console may be opened at, is the only one the
 * bucket's CORS allows (a page from anywhere else gets no preflight; s3rver checks no signature).
 */
export async function allowUploadsFrom(config: Config, port: number): Promise<void> {
  const origins = [...new Set([`http://${urlHost(config.host)}:${port}`, ...LOOPBACK.map((host) => `http://${host}:${port}`)])].filter(
    (origin) => !/^http:\/\/(0\.0\.0\.0|\[::\]):/.test(origin),
  );
  const s3 = createS3Client(config);
  try {
    const rule = { AllowedOrigins: origins, AllowedMethods: ['PUT'], AllowedHeaders: ['*'], MaxAgeSeconds: 3000 };
    await s3.send(new PutBucketCorsCommand({ Bucket: config.bucketName, CORSConfiguration: { CORSRules: [rule] } }));
  } finally {
    s3.destroy();
  }
}

/** The names loopback goes by in a browser's address bar. */
const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];

/** A host as it appears in a URL (an IPv6 address in brackets). */
const urlHost = (host: string) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);

function exitWithReason(error: Error): void {
  process.stderr.write(`kmem: ${error.message}\n`);
  process.exit(1);
}

/** What store-thread.mjs posts. */
type StoreThreadMessage =
  | { kind: 'ready'; dynamoPort: number; s3Port: number }
  | { kind: 'failed'; message: string }
  | { kind: 'requests'; counts: Record<string, number> }
  | { kind: 'closed' };

/** The thread's next message of `kind`; rejects on a failure it reports, an error, or its exit. */
function nextMessage<K extends 'ready' | 'requests' | 'closed'>(
  thread: Worker,
  kind: K,
): Promise<Extract<StoreThreadMessage, { kind: K }>> {
  return new Promise((resolve, reject) => {
    const settle = (action: () => void) => {
      thread.off('message', onMessage).off('error', onError).off('exit', onExit);
      action();
    };
    const onMessage = (message: StoreThreadMessage) => {
      if (message.kind === kind) settle(() => resolve(message as Extract<StoreThreadMessage, { kind: K }>));
      else if (message.kind === 'failed') settle(() => reject(new Error(message.message)));
    };
    const onError = (error: Error) => settle(() => reject(error));
    const onExit = (code: number) => settle(() => reject(new Error(`the local stores' thread exited (code ${code})`)));
    thread.on('message', onMessage).on('error', onError).on('exit', onExit);
  });
}

/** Creates the single table with its indexes unless it exists. */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return untilActive(client, tableName);
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  const attributes = [PARTITION_KEY, SORT_KEY, ...GLOBAL_INDEXES.flatMap((i) => [i.partitionKey, i.sortKey])];
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: attributes.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: PARTITION_KEY, KeyType: 'HASH' },
        { AttributeName: SORT_KEY, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: GLOBAL_INDEXES.map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    }),
  );
  await untilActive(client, tableName);
}

/** dynalite makes a new table ACTIVE on a timer; requests before that answer "resource not found". */
async function untilActive(client: DynamoDBClient, tableName: string): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    const described = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (described.Table?.TableStatus === 'ACTIVE') return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`table ${tableName} did not become active`);
}
