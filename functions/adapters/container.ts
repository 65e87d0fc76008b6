/**
 * The composition root of a container: configuration, SDK clients and adapters, created once and shared
 * by every invocation (and, on the local runtime, by every handler in the process).
 */
import { randomUUID } from 'node:crypto';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import { type Config, config as loadConfig } from '../config';
import type { ApiKeyStore, Clock, HealthProbe, IdGenerator, QueuePort } from '../core/ports';
import { createDocumentClient, createS3Client, createSqsClient } from './aws-clients';
import { CachedApiKeyStore } from './dynamodb/cached-api-key-store';
import type { CursorSealer } from './dynamodb/cursor';
import { loadCursorSealer } from './dynamodb/cursor-key';
import { AccountRepository, ApiKeyRepository } from './dynamodb/repositories/account-repository';
import { MessageRepository } from './dynamodb/repositories/message-repository';
import { SessionRepository } from './dynamodb/repositories/session-repository';
import { UserRepository } from './dynamodb/repositories/user-repository';
import { Table } from './dynamodb/table';
import { SqsQueue } from './queue/sqs-queue';

export interface Container {
  config: Config;
  documentClient: DynamoDBDocumentClient;
  s3: S3Client;
  table: Table;
  accounts: AccountRepository;
  apiKeys: ApiKeyStore;
  users: UserRepository;
  sessions: SessionRepository;
  messages: MessageRepository;
  queue: QueuePort;
  clock: Clock;
  ids: IdGenerator;
  health: HealthProbe;
}

let instance: Container | undefined;

export function container(): Container {
  instance ??= createContainer(loadConfig());
  return instance;
}

/** Drops the container (the local runtime does this when it stops, tests between runtimes). */
export function resetContainer(): void {
  instance = undefined;
}

export function createContainer(config: Config): Container {
  const documentClient = createDocumentClient(config);
  let sealer: Promise<CursorSealer> | undefined;
  const table: Table = new Table(documentClient, config.tableName, () => {
    sealer ??= loadCursorSealer(table).catch((error: unknown) => {
      sealer = undefined;
      throw error;
    });
    return sealer;
  });
  const apiKeyRepository = new ApiKeyRepository(table);
  return {
    config,
    documentClient,
    s3: createS3Client(config),
    table,
    accounts: new AccountRepository(table),
    apiKeys: new CachedApiKeyStore(apiKeyRepository, config.authCacheMs),
    users: new UserRepository(table),
    sessions: new SessionRepository(table),
    messages: new MessageRepository(table),
    queue: createQueue(config),
    clock: { now: () => new Date() },
    ids: { uuid: randomUUID },
    health: {
      check: async () => {
        await documentClient.send(new DescribeTableCommand({ TableName: config.tableName }));
      },
    },
  };
}

function createQueue(config: Config): QueuePort {
  return config.queue.kind === 'sqs'
    ? new SqsQueue(createSqsClient(config), config.queue.url)
    : { send: async () => undefined };
}
