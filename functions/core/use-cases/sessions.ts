/**
 * Conversation sessions: created with a caller-chosen id, soft-deleted. A deleted session's record stays
 * (interface.md) but its text goes: its messages, its summary, and (through their rebuilds) every index holding them.
 */
import { mapConcurrently, STORE_CONCURRENCY } from '../concurrency';
import { BadRequestError, ConflictError, NotFoundError } from '../errors';
import type { MetadataEntry, Session } from '../model';
import type { Clock, ConversationSyncStore, IdGenerator, MemoryStore, ObjectStore, QueuePort, SessionLinkStore } from '../ports';
import type { MessageStore, SessionStore } from '../conversations/ports';
import { sessionDeleted } from './conversations';
import { deleteStoredSummary } from '../summaries/stored-summary';
import { summaryChanged } from './session-summaries';

export interface SessionDeps {
  sessions: SessionStore;
  messages: MessageStore;
  /** Each session's messages written or deleted since its summary's last update. */
  summarySync: ConversationSyncStore;
  objects: ObjectStore;
  sessionLinks: SessionLinkStore;
  conversationSync: ConversationSyncStore;
  messageIndexSync: ConversationSyncStore;
  memories: MemoryStore;
  queue: QueuePort;
  clock: Clock;
  ids: IdGenerator;
}

export interface NewSession {
  /** The caller's id for the session; generated when absent. */
  id?: string;
  customerUserId?: string;
  metadata?: MetadataEntry[];
}

export async function createSession(deps: SessionDeps, accountId: string, input: NewSession): Promise<Session> {
  const now = deps.clock.now().toISOString();
  const session: Session = {
    id: input.id ?? deps.ids.uuid(),
    accountId,
    customerUserId: input.customerUserId ?? null,
    metadata: input.metadata ?? [],
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
    endedAt: null,
  };
  try {
    await deps.sessions.create(session);
  } catch (error) {
    if (error instanceof ConflictError) {
      throw BadRequestError.forField('sessionID', `a session '${session.id}' already exists`);
    }
    throw error;
  }
  return session;
}

/** Soft-deleted sessions stay readable, with deletedAt set. */
export async function getSession(deps: SessionDeps, accountId: string, id: string): Promise<Session> {
  const session = await deps.sessions.get(accountId, id);
  if (!session) throw NotFoundError.of('session', id);
  return session;
}

/**
 * Soft delete: the record stays, with deletedAt. The session's messages are deleted and its summary with
 * them; they leave every memory it is attached to and the account's message index at once, and those
 * indexes are rebuilt (and purged) without them. A repeated delete finishes what a failed one left.
 */
export async function deleteSession(deps: SessionDeps, accountId: string, id: string): Promise<Session> {
  const session = await deps.sessions.markDeleted(accountId, id, deps.clock.now().toISOString());
  if (!session) throw NotFoundError.of('session', id);
  await sessionDeleted(deps, accountId, id); // hidden everywhere first; the rebuilds it asks for see the session deleted
  const deleted = await deleteMessagesOf(deps, accountId, id);
  await deleteStoredSummary(deps.objects, accountId, id);
  // an update of the summary already running would write it again: the next one sees the session deleted
  const [first] = deleted;
  if (first !== undefined) await summaryChanged(deps, accountId, id, first);
  return session;
}

const DELETE_PAGE = 100;

/** Deletes every message of the session (listed whole first: a listing is not paged while it shrinks); answers their ids. */
async function deleteMessagesOf(deps: Pick<SessionDeps, 'messages'>, accountId: string, sessionId: string): Promise<string[]> {
  const ids: string[] = [];
  let nextToken: string | undefined;
  do {
    const page = await deps.messages.list(accountId, { sessionId }, { limit: DELETE_PAGE, nextToken });
    ids.push(...page.items.map((message) => message.id));
    nextToken = page.nextToken ?? undefined;
  } while (nextToken);
  await mapConcurrently(ids, STORE_CONCURRENCY, (messageId) => deps.messages.delete(accountId, messageId));
  return ids;
}

/** Sets endedAt (the first end wins); a deleted session cannot be ended. */
export async function endSession(deps: SessionDeps, accountId: string, id: string): Promise<Session> {
  const existing = await getSession(deps, accountId, id);
  if (existing.deletedAt) throw BadRequestError.forField('id', `session '${id}' is deleted`);
  const session = await deps.sessions.markEnded(accountId, id, deps.clock.now().toISOString());
  if (!session) throw NotFoundError.of('session', id);
  return session;
}
