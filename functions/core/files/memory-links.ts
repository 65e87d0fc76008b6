/**
 * Links between memories and files, below both the use cases and the worker pipeline: when a file's
 * content changes, the memories that had ingested it take it again.
 */
import type { MemoryFileLink } from '../model';
import type { Clock, IdGenerator, LinkStore, MemoryStore, ObjectStore, QueuePort } from '../ports';
import type { FileStore } from './ports';
import type { WorkMessage } from '../work';
import type { FileDeps } from './file-records';

export interface MemoryFileDeps {
  memories: MemoryStore;
  files: FileStore;
  links: LinkStore;
  objects: ObjectStore;
  queue: QueuePort;
  clock: Clock;
  ids: IdGenerator;
}

/**
 * The memories that had ingested these files take them again: each link waits for ingestion once more and
 * each memory gets one `memory.refresh` (its worker starts the job when the memory is free).
 */
export async function refreshMemoriesOf(
  deps: Pick<FileDeps, 'links' | 'queue' | 'clock'>,
  accountId: string,
  fileIds: readonly string[],
  charge?: Record<string, number>,
): Promise<void> {
  const byMemory = await markLinksChanged(deps, accountId, fileIds);
  for (const [memoryId, ids] of byMemory) {
    for (let i = 0; i < ids.length; i += REFRESH_FILES_PER_MESSAGE) {
      const batch = ids.slice(i, i + REFRESH_FILES_PER_MESSAGE);
      const work: WorkMessage = { kind: 'memory.refresh', accountId, memoryId, fileIds: batch, ...(charge ? { charge } : {}) };
      await deps.queue.send(work);
    }
  }
}

/**
 * Marks the links of memories that had ingested these files as waiting again; answers the file ids by
 * memory. A link not ingested yet is marked changed too (it waits already, and the owner starts that
 * ingestion), so an ingestion under way that read the old content leaves it waiting and refreshes it.
 */
export async function markLinksChanged(
  deps: Pick<FileDeps, 'links' | 'clock'>,
  accountId: string,
  fileIds: readonly string[],
): Promise<Map<string, string[]>> {
  const now = deps.clock.now().toISOString();
  const ingested: MemoryFileLink[] = [];
  for (const fileId of fileIds) {
    for (const link of await deps.links.listByFile(accountId, fileId)) {
      await deps.links.markChanged(accountId, link.memoryId, fileId, now);
      if (link.ingestedAt) ingested.push(link); // never ingested: the memory's owner starts that ingestion
    }
  }
  return fileIdsByMemory(ingested);
}

/** The links' file ids, by memory. */
export function fileIdsByMemory(links: readonly Pick<MemoryFileLink, 'memoryId' | 'fileId'>[]): Map<string, string[]> {
  const byMemory = new Map<string, string[]>();
  for (const { memoryId, fileId } of links) {
    const ids = byMemory.get(memoryId);
    if (ids) ids.push(fileId);
    else byMemory.set(memoryId, [fileId]);
  }
  return byMemory;
}

/** File ids one refresh message carries (a queue message holds 256 KB). */
const REFRESH_FILES_PER_MESSAGE = 2_000;
