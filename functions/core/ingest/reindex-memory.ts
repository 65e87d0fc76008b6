/** The `memory.reindex` work: publish an index without the files removed from the memory. */
import type { WorkMessage } from '../work';
import { type IndexDeps, buildAndPublishIndex } from './memory-index';

type ReindexMessage = Extract<WorkMessage, { kind: 'memory.reindex' }>;

export async function reindexMemory(deps: IndexDeps & { clock: { now(): Date } }, message: ReindexMessage): Promise<void> {
  await buildAndPublishIndex(deps, message.accountId, message.memoryId, {
    added: new Map(),
    changes: ({ chunkCount, fileCount }) => ({ chunkCount, fileCount, updatedAt: deps.clock.now().toISOString() }),
  });
}
