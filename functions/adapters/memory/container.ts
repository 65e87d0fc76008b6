/**
 * A container over memory: every store and queue port by its in-memory implementation, wired by the
 * same composeContainer as the DynamoDB/S3 container. Each store is held to its adapter's contract
 * (test/contract/stores), so use-case and worker-pipeline tests can run on it without dynalite or s3rver.
 */
import type { Config } from '../../config';
import { type Container, composeContainer, type ContainerStores } from '../container';
import { MemoryAccountStore, MemoryApiKeyStore, MemoryRequestCounter } from './accounts';
import { MemoryFileStore, MemoryImportStore, MemoryUploadStore } from './files';
import { MemoryJobStore, MemoryLinkStore, MemoryMemoryStore, MemorySessionLinkStore } from './memories';
import { MemoryObjectStore } from './object-store';
import { MemoryExportStore } from './exports';
import { MemoryMessageStore, MemorySessionStore, MemoryUserStore } from './people';
import { MemoryQueue } from './queue';
import { MemoryConversationSyncStore, MemoryGraphItemStore, MemoryMessageIndexStore } from './sync';
import { MemoryWebhookStore } from './webhooks';

/** The stores in memory; `objects` and every other bucket by name, so a test can put what an S3 import reads. */
export type MemoryStores = ContainerStores & { objects: MemoryObjectStore; bucket: (name: string) => MemoryObjectStore };

export function memoryStores(bucketName = 'kmem-memory'): MemoryStores {
  const buckets = new Map<string, MemoryObjectStore>();
  const bucket = (name: string): MemoryObjectStore => {
    let found = buckets.get(name);
    if (!found) {
      found = new MemoryObjectStore(name);
      buckets.set(name, found);
    }
    return found;
  };
  return {
    accounts: new MemoryAccountStore(),
    apiKeys: new MemoryApiKeyStore(),
    users: new MemoryUserStore(),
    sessions: new MemorySessionStore(),
    messages: new MemoryMessageStore(),
    uploads: new MemoryUploadStore(),
    files: new MemoryFileStore(),
    memories: new MemoryMemoryStore(),
    links: new MemoryLinkStore(),
    graphItems: new MemoryGraphItemStore(),
    sessionLinks: new MemorySessionLinkStore(),
    conversationSync: new MemoryConversationSyncStore(),
    messageIndexSync: new MemoryConversationSyncStore(),
    summarySync: new MemoryConversationSyncStore(),
    messageIndexes: new MemoryMessageIndexStore(),
    jobs: new MemoryJobStore(),
    imports: new MemoryImportStore(),
    exports: new MemoryExportStore(),
    webhooks: new MemoryWebhookStore(),
    requestCounter: new MemoryRequestCounter(),
    objects: bucket(bucketName),
    bucket,
    health: { check: async () => undefined },
  };
}

/** A container over memory, with the queue it sends work to (the caller runs the worker over it). */
export type MemoryContainer = MemoryStores & Container & { queue: MemoryQueue };

export function createMemoryContainer(config: Config): MemoryContainer {
  const visibilityTimeoutSeconds = config.queue.kind === 'local' ? config.queue.visibilityTimeoutSeconds : undefined;
  // the worker gives work up on its last try: the queue dead-letters after exactly that many, as the file queue does
  const queue = new MemoryQueue({ visibilityTimeoutSeconds, maxReceiveCount: config.work.maxAttempts });
  return { ...composeContainer(config, memoryStores(config.bucketName), queue), queue };
}
