/**
 * The composition root of a container: configuration, SDK clients and adapters, created once and shared
 * by every invocation (and, on the local runtime, by every handler in the process).
 */
import { randomUUID } from 'node:crypto';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import { type Config, config as loadConfig, type FunctionSettingsName } from '../config';
import type { ApiKeyStore, Clock, HealthProbe, IdGenerator, QueuePort, RedeliveryPort } from '../core/ports';
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
import { UploadRepository } from './dynamodb/repositories/upload-repository';
import { UserRepository } from './dynamodb/repositories/user-repository';
import { WebhookRepository } from './dynamodb/repositories/webhook-repository';
import { Table } from './dynamodb/table';
import { PinnedWebhookSender } from './http/webhook-sender';
import { resolveHost } from './net/dns-resolver';
import { LocalQueue } from './queue/local-queue';
import { ConversationSyncRepository } from './dynamodb/repositories/conversation-sync-repository';
import { MessageIndexRepository } from './dynamodb/repositories/message-index-repository';
import { keys } from './dynamodb/keys';
import { SqsQueue } from './queue/sqs-queue';
import { S3ObjectStore } from './s3/object-store';

export type Container = ReturnType<typeof createContainer>;

let instance: Container | undefined;

/**
 * The container of this process. A deployed function names itself on its first call, so only its own
 * settings are read (`FUNCTION_SETTINGS`); invalid or missing settings throw a `ConfigError` on every
 * call until fixed, so no store is ever reached with a wrong name.
 */
export function container(settings?: FunctionSettingsName): Container {
  instance ??= createContainer(loadConfig(settings));
  return instance;
}

/** Makes `deps` this thread's container (the local worker thread's, whose queue is the runtime's). */
export function useContainer(deps: Container): void {
  instance = deps;
}

/** Drops the container (the local runtime does this when it stops, tests between runtimes). */
export function resetContainer(): void {
  instance = undefined;
}

export function createContainer(config: Config) {
  const documentClient = createDocumentClient(config);
  const s3: S3Client = createS3Client(config);
  const table = createTable(documentClient, config.tableName);
  const queue = createQueue(config);
  const clock: Clock = { now: () => new Date() };
  const ids: IdGenerator = { uuid: randomUUID };
  const apiKeys: ApiKeyStore = new CachedApiKeyStore(new ApiKeyRepository(table), config.authCacheMs);
  const objects = new S3ObjectStore(s3, config.bucketName, createS3PresignClient(config));
  const health: HealthProbe = {
    check: async () => {
      await documentClient.send(new DescribeTableCommand({ TableName: config.tableName }));
    },
  };
  return {
    config,
    documentClient,
    s3,
    table,
    accounts: new AccountRepository(table),
    apiKeys,
    users: new UserRepository(table),
    sessions: new SessionRepository(table),
    messages: new MessageRepository(table),
    uploads: new UploadRepository(table),
    files: new FileRepository(table),
    memories: new MemoryRepository(table),
    links: new LinkRepository(table),
    graphItems: new GraphItemRepository(table),
    sessionLinks: new SessionLinkRepository(table),
    conversationSync: new ConversationSyncRepository(table),
    messageIndexSync: new ConversationSyncRepository(table, (accountId) => keys.messageIndexSync(accountId)),
    messageIndexes: new MessageIndexRepository(table),
    jobs: new JobRepository(table),
    imports: new ImportRepository(table),
    /** Another bucket's objects, for S3 imports (the same client and credentials). */
    bucket: (name: string) => new S3ObjectStore(s3, name),
    webhooks: new WebhookRepository(table),
    requestCounter: new BatchedRequestCounter(new RequestCounterRepository(table)),
    objects,
    sender: new PinnedWebhookSender(),
    resolve: resolveHost,
    queue: queue.port,
    localQueue: queue.local,
    clock,
    ids,
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

/** SQS on AWS; on the local runtime, the durable file-backed queue (its pump lives in functions/local). */
function createQueue(config: Config): { port: QueuePort & RedeliveryPort; local?: LocalQueue } {
  if (config.queue.kind === 'sqs') return { port: new SqsQueue(createSqsClient(config), config.queue.url) };
  const local = new LocalQueue({
    directory: config.queue.directory,
    visibilityTimeoutSeconds: config.queue.visibilityTimeoutSeconds,
    // the worker gives work up on its last try: the queue dead-letters after exactly that many
    maxReceiveCount: config.work.maxAttempts,
  });
  return { port: local, local };
}
