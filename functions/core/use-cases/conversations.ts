/**
 * Conversation memory: sessions attached to a memory. Every message of an attached session, past and
 * future, is a chunk of the memory. Each change (a message created or deleted, a session deleted,
 * attached or detached) is first recorded as pending on the memory, then a `memory.sync-session` message
 * asks the worker to build; one build at a time per memory takes everything pending
 * (functions/core/ingest/conversation-sync.ts), so many changes fold into few builds.
 */
import { BadRequestError, ConflictError, NotFoundError } from '../errors';
import { type MemorySessionLink, sessionSource } from '../model';
import type { Clock, ConversationSyncStore, MemoryStore, QueuePort, SessionLinkStore } from '../ports';
import type { SessionStore } from '../conversations/ports';
import type { WorkMessage } from '../work';
import { getMemory } from './memories';
import { ERASED_MARK } from '../stored-index/message-index-sync';

export interface ConversationDeps {
  memories: MemoryStore;
  sessions: SessionStore;
  sessionLinks: SessionLinkStore;
  conversationSync: ConversationSyncStore;
  /** The account's message index (GET /messages/search): its pending changes. */
  messageIndexSync: ConversationSyncStore;
  queue: QueuePort;
  clock: Clock;
}

type SyncRequestDeps = Pick<ConversationDeps, 'conversationSync' | 'messageIndexSync' | 'queue'>;

export async function addSessions(
  deps: ConversationDeps,
  accountId: string,
  memoryId: string,
  sessionIds: string[],
): Promise<MemorySessionLink[]> {
  await getMemory(deps, accountId, memoryId);
  const seen = new Set<string>();
  for (const [i, sessionId] of sessionIds.entries()) {
    if (seen.has(sessionId)) throw BadRequestError.forField(`sessions.${i}`, `session '${sessionId}' is listed twice`);
    seen.add(sessionId);
    const session = await deps.sessions.get(accountId, sessionId);
    if (!session) throw NotFoundError.of('session', sessionId);
    if (session.deletedAt) throw BadRequestError.forField(`sessions.${i}`, `session '${sessionId}' is deleted`);
    if (await deps.sessionLinks.get(accountId, memoryId, sessionId)) {
      throw BadRequestError.forField(`sessions.${i}`, `session '${sessionId}' is already in memory '${memoryId}'`);
    }
  }
  const links: MemorySessionLink[] = [];
  for (const sessionId of sessionIds) {
    const link = { accountId, memoryId, sessionId, createdAt: deps.clock.now().toISOString() };
    try {
      await deps.sessionLinks.create(link);
    } catch (error) {
      if (error instanceof ConflictError)
        throw BadRequestError.forField('sessions', `session '${sessionId}' is already in memory '${memoryId}'`);
      throw error;
    }
    links.push(link);
  }
  await deps.memories.includeSources(accountId, memoryId, sessionIds.map(sessionSource));
  await requestSync(deps, accountId, memoryId, sessionIds);
  return links;
}

/** Detaches sessions: what they contributed leaves retrieval at once and the index is rebuilt without it. */
export async function removeSessions(deps: ConversationDeps, accountId: string, memoryId: string, sessionIds: string[]): Promise<void> {
  await getMemory(deps, accountId, memoryId);
  for (const sessionId of sessionIds) {
    if (!(await deps.sessionLinks.get(accountId, memoryId, sessionId))) {
      throw new NotFoundError(`session '${sessionId}' is not in memory '${memoryId}'`);
    }
  }
  for (const sessionId of sessionIds) {
    await deps.memories.excludeSources(accountId, memoryId, [sessionSource(sessionId)]);
    await deps.sessionLinks.delete(accountId, memoryId, sessionId);
  }
  await requestSync(deps, accountId, memoryId, sessionIds);
}

/** A session was deleted: its messages leave every memory it is attached to at once, then their indexes. */
export async function sessionDeleted(
  deps: Pick<ConversationDeps, 'sessionLinks' | 'memories'> & SyncRequestDeps,
  accountId: string,
  sessionId: string,
): Promise<void> {
  await requestMessageIndexSync(deps, accountId, sessionId, true);
  for (const link of await deps.sessionLinks.listBySession(accountId, sessionId)) {
    await deps.memories.excludeSources(accountId, link.memoryId, [sessionSource(sessionId)]);
    await requestSync(deps, accountId, link.memoryId, [sessionId]);
  }
}

/**
 * A session's messages changed: the account's message index and every memory it is attached to follow.
 * `erased`: a message was deleted (its text must leave the message index's segments: docs/segments.md).
 */
export async function conversationChanged(
  deps: Pick<ConversationDeps, 'sessionLinks'> & SyncRequestDeps,
  accountId: string,
  sessionId: string,
  erased = false,
): Promise<void> {
  await requestMessageIndexSync(deps, accountId, sessionId, erased);
  for (const link of await deps.sessionLinks.listBySession(accountId, sessionId)) {
    await requestSync(deps, accountId, link.memoryId, [sessionId]);
  }
}

/** The message index's counterpart of requestSync; `erased` marks a deletion, so the build purges what it tombstones. */
async function requestMessageIndexSync(deps: SyncRequestDeps, accountId: string, sessionId: string, erased: boolean): Promise<void> {
  await deps.messageIndexSync.markChanged(accountId, accountId, erased ? [sessionId, ERASED_MARK] : [sessionId]);
  await deps.queue.send({ kind: 'messages.sync', accountId, sessionId } satisfies WorkMessage);
}

/** Records the change as pending (so no lost message can lose it), then asks the worker to build. */
async function requestSync(deps: SyncRequestDeps, accountId: string, memoryId: string, sessionIds: readonly string[]): Promise<void> {
  const [first] = sessionIds;
  if (first === undefined) return;
  await deps.conversationSync.markChanged(accountId, memoryId, sessionIds);
  await deps.queue.send({ kind: 'memory.sync-session', accountId, memoryId, sessionId: first } satisfies WorkMessage);
}
