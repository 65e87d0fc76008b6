/**
 * Erasure of superseded index builds. A publish keeps the build before it for readers still loading it;
 * when the publish removed text (a file left the memory or changed, a message or session was deleted),
 * that previous build still holds the text. The `index.retire` work, queued KMEM_RETIRE_AFTER_SECONDS after
 * such a publish, deletes every build older than the one published then: removed text is gone from the
 * bucket within that delay (plus queue latency), never waiting for a next publish. The memory's export
 * archives go too (they may hold the text): GET /memories/export answers such an export `failed`.
 */
import { objectKeys } from '../object-keys';
import type { MemoryStore, MessageIndexStore, ObjectStore, QueuePort } from '../ports';
import type { WorkMessage } from '../work';
import type { StoredChunk } from '../stored-index/chunks';

type RetireMessage = Extract<WorkMessage, { kind: 'index.retire' }>;

export interface RetireDeps {
  memories: MemoryStore;
  messageIndexes: MessageIndexStore;
  objects: ObjectStore;
}

/** Whether `next` leaves out a chunk (or a chunk's text) that `previous` holds. */
export function dropsText(previous: readonly StoredChunk[], next: readonly StoredChunk[]): boolean {
  const held = new Map(next.map((chunk) => [chunk.id, chunk.text]));
  return previous.some((chunk) => held.get(chunk.id) !== chunk.text);
}

/** What queueing a retirement needs: the queue, and the delay (KMEM_RETIRE_AFTER_SECONDS, long enough for a warm reader to finish loading). */
export interface RetireQueueDeps {
  queue: QueuePort;
  config: { work: { retireAfterSeconds: number } };
}

/** Queues the retirement of the builds before `version` (of the memory's index, or of the account's message index). */
export async function queueRetirement(deps: RetireQueueDeps, target: Omit<RetireMessage, 'kind'>): Promise<void> {
  await deps.queue.send({ kind: 'index.retire', ...target } satisfies RetireMessage, { delaySeconds: deps.config.work.retireAfterSeconds });
}

export async function retireBuilds(deps: RetireDeps, message: RetireMessage): Promise<void> {
  const { accountId, memoryId, version } = message;
  if (memoryId) {
    const memory = await deps.memories.get(accountId, memoryId);
    if (!memory || memory.indexVersion < version) return;
    await deleteBuildsBefore(deps.objects, objectKeys.indexRoot(accountId, memoryId), version);
    await deps.objects.deletePrefix(objectKeys.exportsPrefix(accountId, memoryId)); // archives may hold the removed text
    return;
  }
  const pointer = await deps.messageIndexes.get(accountId);
  if (pointer && pointer.version >= version) await deleteBuildsBefore(deps.objects, objectKeys.messageIndexRoot(accountId), version);
}

/** Deletes the build folders (`v<n>-<build>/`) under `root` of versions below `version`. */
async function deleteBuildsBefore(objects: ObjectStore, root: string, version: number): Promise<void> {
  const builds = new Set((await objects.list(root)).map((key) => key.slice(0, key.indexOf('/', root.length) + 1)));
  for (const build of builds) {
    const built = Number(/^v(\d+)-/.exec(build.slice(root.length))?.[1] ?? NaN);
    if (Number.isInteger(built) && built < version) await objects.deletePrefix(build);
  }
}
