/**
 * The local runtime's composition: one container over the durable file queue (the stand-in for SQS),
 * with what every endpoint group adds to it, made once and handed to every handler. Only the local
 * runtime, the command line and tests import this, so the Lambda bundles carry no file queue.
 */
import { type AwsContainer, type Container, createContainer } from '../adapters/container';
import { createMemoryContainer, type MemoryContainer } from '../adapters/memory/container';
import { LocalQueue } from '../adapters/queue/local-queue';
import type { Config } from '../config';
import { withEntityIndexes } from '../memories/routes';
import { type RetrievalRouteDeps, withRetrieval } from '../retrieval/routes';
import type { MemoriesDeps } from '../memories/routes';

/** Every group's deps in one, and the file queue the runtime's pumps read. */
export type LocalDeps = AwsContainer & MemoriesDeps & RetrievalRouteDeps & { localQueue: LocalQueue };

export function composeLocalDeps(config: Config): LocalDeps {
  const localQueue = localQueueOf(config);
  return { ...withEndpointGroups(createContainer(config, localQueue)), localQueue };
}

/** Every group's deps over memory (tests of the use cases and the worker pipeline): no store server, nothing on disk. */
export type MemoryDeps = MemoryContainer & MemoriesDeps & RetrievalRouteDeps;

export function composeMemoryDeps(config: Config): MemoryDeps {
  return withEndpointGroups(createMemoryContainer(config));
}

/** What every endpoint group adds to a container, whatever its stores. */
function withEndpointGroups<C extends Container>(container: C): C & MemoriesDeps & RetrievalRouteDeps {
  return withRetrieval(withEntityIndexes(container));
}

/** The file queue of the settings (its directory under the data directory unless set). */
function localQueueOf(config: Config): LocalQueue {
  if (config.queue.kind !== 'local') throw new Error('the local runtime queues work in a directory: leave KMEM_QUEUE_URL unset');
  return new LocalQueue({
    directory: config.queue.directory,
    visibilityTimeoutSeconds: config.queue.visibilityTimeoutSeconds,
    // the worker gives work up on its last try: the queue dead-letters after exactly that many
    maxReceiveCount: config.work.maxAttempts,
  });
}
