/**
 * A read of a published index survives the publishes that run beside it. A publish keeps only the version
 * before it, and a retirement deletes older ones (docs/segments.md, docs/backups.md), so a query that read a
 * memory record (or the account's message index pointer) and then loads that version's files may find
 * them collected: two publishes came meanwhile, as a memory written once a second does while a cold
 * container loads. Such a read is done again on the version published now. A failure while the version
 * stayed the same is the query's own.
 */
import type { Memory } from '../model';
import type { MemoryStore } from '../ports';
import type { IndexCache, LoadedGraph } from '../stored-index/index-cache';

/** Reads of a version collected meanwhile, at most: each try follows a publish. */
const TRIES = 3;

/** What `run` answers on `read`, or, when it fails and `reread` finds another version published, on that one. */
export async function onCurrentVersion<V, R>(
  read: V,
  reading: { reread: () => Promise<V | undefined>; versionOf: (read: V) => number },
  run: (current: V) => Promise<R>,
): Promise<R> {
  let current = read;
  for (let tries = 1; ; tries++) {
    try {
      return await run(current);
    } catch (error) {
      const again = tries < TRIES ? await reading.reread() : undefined;
      if (again === undefined || reading.versionOf(again) === reading.versionOf(current)) throw error;
      current = again;
    }
  }
}

/** A graph memory's graph, loaded for the version its record names (or a newer one, as above), with that record. */
export function loadedGraph(
  deps: { memories: Pick<MemoryStore, 'get'>; indexes: Pick<IndexCache, 'loadGraph'> },
  accountId: string,
  read: Memory,
): Promise<{ memory: Memory; loaded: LoadedGraph | undefined }> {
  const rereading = { reread: () => deps.memories.get(accountId, read.id), versionOf: (memory: Memory) => memory.indexVersion };
  return onCurrentVersion(read, rereading, async (memory) => ({ memory, loaded: await deps.indexes.loadGraph(memory) }));
}
