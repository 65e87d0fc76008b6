/**
 * The memory record a warm container last read for a retrieval, kept so the next query of the same memory
 * can start ranking while the record is read again, instead of after (retrieve-memory.ts). A guess only:
 * every query still reads the record, and a ranking started from the guess is answered only when the
 * record read holds the same retrieval inputs (`sameRetrievalInputs`); otherwise it is dropped and the
 * query ranks over the record read. So a kept record never makes an answer stale: a deleted memory is 404
 * and a new index version or exclusion is in the very next answer, as without it. A record read more than
 * GUESS_FOR_MS ago is not guessed from: its index may have left the container's cache since, and a guess
 * should cost the ranking it overlaps, not a load of an index version that may have been replaced.
 */
import type { Memory } from '../model';
import type { MemoryStore } from '../ports';
import { PerIndexLru } from '../stored-index/per-index-lru';

/** Memories remembered per store (a container's): least recently queried out first. */
const MEMORIES_PER_STORE = 1_000;

/** How long a record read is guessed from. */
const GUESS_FOR_MS = 60_000;

/** Keyed by the memory store, so each container (each store) keeps its own. */
const lastRead = new PerIndexLru<{ memory: Memory; readAt: number }>(MEMORIES_PER_STORE);

const keyOf = (accountId: string, memoryId: string) => `${accountId}/${memoryId}`;

/** The record last read of this account's memory, if any. */
export function guessedMemory(store: MemoryStore, accountId: string, memoryId: string): Memory | undefined {
  const kept = lastRead.get(store, keyOf(accountId, memoryId))?.value;
  return kept && Date.now() - kept.readAt < GUESS_FOR_MS ? kept.memory : undefined;
}

/** Remembers what a read answered (`undefined`: the memory is gone, so nothing is guessed for it). */
export function rememberMemory(store: MemoryStore, accountId: string, memoryId: string, memory: Memory | undefined): void {
  if (memory) lastRead.set(store, keyOf(accountId, memoryId), { memory, readAt: Date.now() });
  else lastRead.delete(store, keyOf(accountId, memoryId));
}

/**
 * Whether two records of a memory give the same retrieval: every field retrieval reads of the record
 * (the index it loads: owner, id, type, version and prefix; the sources it leaves out). A field retrieval
 * comes to read must be added here.
 */
export function sameRetrievalInputs(a: Memory, b: Memory): boolean {
  return (
    a.accountId === b.accountId &&
    a.id === b.id &&
    a.memoryType === b.memoryType &&
    a.indexVersion === b.indexVersion &&
    a.indexPrefix === b.indexPrefix &&
    a.excludedFileIds.length === b.excludedFileIds.length &&
    a.excludedFileIds.every((id, i) => id === b.excludedFileIds[i])
  );
}
