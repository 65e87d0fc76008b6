/**
 * Taking a failed restore back: everything it made is found through the restored memory's links (each
 * link is written before its record) and deleted (files with their pages and objects, sessions with their
 * messages, the memory's objects and graph items); the memory stays, `failed`, empty, with the reason.
 */
import type { Memory } from '../model';
import { objectKeys } from '../object-keys';
import type { ConversationSyncStore, GraphItemStore, MemoryStore, ObjectStore } from '../ports';
import type { RestoreRecordDeps } from './restore-records';

export interface UndoDeps extends RestoreRecordDeps {
  memories: MemoryStore;
  graphItems: GraphItemStore;
  conversationSync: ConversationSyncStore;
  objects: ObjectStore;
}

export async function takeBackRestore(deps: UndoDeps, memory: Memory, reason: string): Promise<void> {
  const { accountId, id: memoryId } = memory;
  const links = await deps.links.listByMemory(accountId, memoryId);
  for (const link of links) {
    const pages = await deps.files.listChildren(accountId, link.fileId);
    for (const file of [...pages.map((page) => page.id), link.fileId]) {
      await deps.objects.deletePrefix(objectKeys.fileSilverPrefix(accountId, file));
    }
    await deps.files.deleteMany(accountId, [...pages.map((page) => page.id), link.fileId]);
  }
  await deps.links.deleteMany(accountId, links);
  for (const link of await deps.sessionLinks.listByMemory(accountId, memoryId)) {
    await deleteMessages(deps, accountId, link.sessionId);
    await deps.sessions.delete(accountId, link.sessionId);
    await deps.sessionLinks.delete(accountId, memoryId, link.sessionId);
  }
  await deps.objects.deletePrefix(objectKeys.memoryPrefix(accountId, memoryId));
  await deps.graphItems.deleteAll(accountId, memoryId);
  await deps.conversationSync.delete(accountId, memoryId);
  const now = deps.clock.now().toISOString();
  const empty = { indexPrefix: null, chunkCount: 0, fileCount: 0, entityCount: 0, relationCount: 0, factCount: 0 };
  await deps.memories.update(accountId, memoryId, { ...empty, step: 'failed', lastError: `restore failed: ${reason}`, updatedAt: now });
}

async function deleteMessages(deps: UndoDeps, accountId: string, sessionId: string): Promise<void> {
  const ids: string[] = [];
  let nextToken: string | undefined;
  do {
    const page = await deps.messages.list(accountId, { sessionId }, { limit: 100, ...(nextToken ? { nextToken } : {}) });
    ids.push(...page.items.map((message) => message.id));
    nextToken = page.nextToken ?? undefined;
  } while (nextToken);
  for (const id of ids) await deps.messages.delete(accountId, id);
}
