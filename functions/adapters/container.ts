/**
 * The composition root of a container: configuration, SDK clients and adapters, created once from a
 * function's validated settings and passed into its routes or work handlers (on the local runtime, one
 * set shared by every handler in the process). Work goes to SQS unless the caller hands another queue
 * (the local runtime hands its file queue: see functions/local/compose.ts), so no Lambda bundle carries it.
 */
import { randomUUID } from 'node:crypto';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import { type Config, ConfigError } from '../config';
import type {
  AccountStore,
  ApiKeyStore,
  Clock,
  ConversationSyncStore,
  GraphItemStore,
  HealthProbe,
  IdGenerator,
  JobStore,
  LinkStore,
  MemoryRecordReader,
  MemoryStore,
  MessageIndexStore,
  ObjectStore,
  QueuePort,
  RedeliveryPort,
  RequestCounter,
  SessionLinkStore,
  UserStore,
} from '../core/ports';
import type { MessageStore, SessionStore } from '../core/conversations/ports';
import type { FileStore, ImportStore, UploadStore } from '../core/files/ports';
import type { WebhookSender, WebhookStore } from '../core/webhooks/ports';
import type { ExportStore, PortableArchives } from '../core/portable/ports';
import { ObjectStoreArchives } from './archive/portable-archives';
import { ExportRepository } from './dynamodb/repositories/export-repository';
import { createDocumentClient, createS3Client, createS3PresignClient, createSqsClient } from './aws-clients';
import { CachedApiKeyStore } from './dynamodb/cached-api-key-store';
import type { CursorSealer } from './dynamodb/cursor';
import { loadCursorSealer } from './dynamodb/cursor-key';
import { AccountRepository, ApiKeyRepository } from './dynamodb/repositories/account-repository';
import { FileRepository } from './dynamodb/repositories/file-repository';
import { ImportRepository } from './dynamodb/repositories/import-repository';
import { JobRepository } from './dynamodb/repositories/job-repository';
import { GraphItemRepository } from './dynamodb/repositories/graph-item-repository';
import { LinkRepository } from './dynamodb/repositories/link-repository';
import { MemoryRepository } from './dynamodb/repositories/memory-repository';
import { MessageRepository } from './dynamodb/repositories/message-repository';
import { SessionLinkRepository } from './dynamodb/repositories/session-link-repository';
import { SessionRepository } from './dynamodb/repositories/session-repository';
import { BatchedRequestCounter, RequestCounterRepository } from './dynamodb/repositories/request-counter-repository';
import { MemoryRecordRepository } from './dynamodb/repositories/memory-record-reader';
import { UploadRepository } from './dynamodb/repositories/upload-repository';
import { UserRepository } from './dynamodb/repositories/user-repository';
import { WebhookRepository } from './dynamodb/repositories/webhook-repository';
import { Table } from './dynamodb/table';
import { PinnedWebhookSender } from './webhooks/webhook-sender';
import { resolveHost } from './net/dns-resolver';
import { ConversationSyncRepository } from './dynamodb/repositories/conversation-sync-repository';
import { MessageIndexRepository } from './dynamodb/repositories/message-index-repository';
import { AccountErasureRepository } from './dynamodb/repositories/account-erasure-repository';
import { keys } from './dynamodb/keys';
import { SqsQueue } from './queue/sqs-queue';
import { S3ObjectStore } from './s3/object-store';

/** Where work is queued, and how a failed delivery comes back sooner. */
export type WorkQueue = QueuePort & RedeliveryPort;

/** A bucket an S3 import reads: its objects with their user metadata, and their listing with sizes and ETags. */
type ListedBucket = ObjectStore & {
  listSized(prefix: string): Promise<Array<{ key: string; size: number; etag?: string }>>;
  getWithMetadata(key: string): Promise<{ bytes: Uint8Array; metadata: Record<string, string> } | undefined>;
  userMetadata(key: string): Promise<Record<string, string> | undefined>;
};

/**
 * The stores a container is made of: DynamoDB and S3 here (createContainer), memory in
 * functions/adapters/memory (tests of the use cases and the worker pipeline). Composed the same way by
 * composeContainer.
 */
export interface ContainerStores {
  accounts: AccountStore;
  apiKeys: ApiKeyStore;
  users: UserStore;
  sessions: SessionStore;
  messages: MessageStore;
  uploads: UploadStore;
  files: FileStore;
  memories: MemoryStore;
  /** The memory and its account's source version in one read (retrieval's first read), where the store can. */
  memoryRecords?: MemoryRecordReader;
  links: LinkStore;
  graphItems: GraphItemStore;
  sessionLinks: SessionLinkStore;
  conversationSync: ConversationSyncStore;
  /** The pending conversation changes of each account's message index (the same store, keyed by account). */
  messageIndexSync: ConversationSyncStore;
  /** The pending messages of each session's summary (the same store, keyed by session, entries by message id). */
  summarySync: ConversationSyncStore;
  messageIndexes: MessageIndexStore;
  jobs: JobStore;
  imports: ImportStore;
  exports: ExportStore;
  webhooks: WebhookStore;
  requestCounter: RequestCounter;
  objects: ObjectStore;
  /** Another bucket's objects, for S3 imports (the same client and credentials). */
  bucket: (name: string) => ListedBucket;
  health: HealthProbe;
}

/** What every handler and the worker are handed: the settings, the stores, the queue and the services beside them. */
export interface Container extends ContainerStores {
  config: Config;
  sender: WebhookSender;
  resolve: typeof resolveHost;
  queue: WorkQueue;
  clock: Clock;
  ids: IdGenerator;
  /** Export archives, streamed to and from the bucket. */
  archives: PortableArchives;
}

/** A container over DynamoDB and S3, with the SDK clients it made (the local runtime creates its table through them). */
export type AwsContainer = ReturnType<typeof createContainer>;

/** The one wiring of a container around its stores, whichever they are. */
export function composeContainer<S extends ContainerStores>(config: Config, stores: S, queue: WorkQueue): S & Container {
  const clock: Clock = { now: () => new Date() };
  const ids: IdGenerator = { uuid: randomUUID };
  const archives = new ObjectStoreArchives(stores.objects, config.imports.archive);
  return { ...stores, config, sender: new PinnedWebhookSender(), resolve: resolveHost, queue, clock, ids, archives };
}

/** Everything a function shares between invocations, from its settings; work goes to `queue` (SQS by default). */
export function createContainer(config: Config, queue: WorkQueue = sqsQueue(config)) {
  const documentClient = createDocumentClient(config);
  const s3: S3Client = createS3Client(config);
  const table = createTable(documentClient, config.tableName);
  const accountErasure = new AccountErasureRepository(table); // the operator's `accounts delete` (bin/kmem.ts) alone uses it
  return { documentClient, s3, table, accountErasure, ...composeContainer(config, awsStores(config, documentClient, s3, table), queue) };
}

/** The stores over the single table and the bucket. */
function awsStores(config: Config, documentClient: DynamoDBDocumentClient, s3: S3Client, table: Table): ContainerStores {
  const health: HealthProbe = {
    check: async () => {
      await documentClient.send(new DescribeTableCommand({ TableName: config.tableName }));
    },
  };
  return {
    accounts: new AccountRepository(table),
    apiKeys: new CachedApiKeyStore(new ApiKeyRepository(table), config.authCacheMs),
    users: new UserRepository(table),
    sessions: new SessionRepository(table),
    messages: new MessageRepository(table),
    uploads: new UploadRepository(table),
    files: new FileRepository(table),
    memories: new MemoryRepository(table),
    memoryRecords: new MemoryRecordRepository(table),
    links: new LinkRepository(table),
    graphItems: new GraphItemRepository(table),
    sessionLinks: new SessionLinkRepository(table),
    conversationSync: new ConversationSyncRepository(table),
    messageIndexSync: new ConversationSyncRepository(table, (accountId) => keys.messageIndexSync(accountId)),
    summarySync: new ConversationSyncRepository(table, keys.sessionSummarySync),
    messageIndexes: new MessageIndexRepository(table),
    jobs: new JobRepository(table),
    imports: new ImportRepository(table),
    exports: new ExportRepository(table),
    webhooks: new WebhookRepository(table),
    requestCounter: new BatchedRequestCounter(new RequestCounterRepository(table)),
    objects: new S3ObjectStore(s3, config.bucketName, createS3PresignClient(config)),
    bucket: (name: string) => new S3ObjectStore(s3, name),
    health,
  };
}

function createTable(documentClient: DynamoDBDocumentClient, tableName: string): Table {
  let sealer: Promise<CursorSealer> | undefined;
  const table: Table = new Table(documentClient, tableName, () => {
    sealer ??= loadCursorSealer(table).catch((error: unknown) => {
      sealer = undefined;
      throw error;
    });
    return sealer;
  });
  return table;
}

/** The SQS queue of the settings; the local file queue exists only inside the local runtime, which hands its own. */
function sqsQueue(config: Config): WorkQueue {
  if (config.queue.kind !== 'sqs') {
    throw new ConfigError('invalid configuration: KMEM_QUEUE_URL: not set (the local file queue runs only inside the local runtime)');
  }
  return new SqsQueue(createSqsClient(config), config.queue.url);
}
