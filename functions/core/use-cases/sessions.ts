/** Conversation sessions: created with a caller-chosen id, soft-deleted. */
import { BadRequestError, ConflictError, NotFoundError } from '../errors';
import type { MetadataEntry, Session } from '../model';
import type { Clock, ConversationSyncStore, IdGenerator, MemoryStore, QueuePort, SessionLinkStore, SessionStore } from '../ports';
import { sessionDeleted } from './conversations';

export interface SessionDeps {
  sessions: SessionStore;
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

/** Soft delete: the record stays; the session's messages leave every memory it is attached to. */
export async function deleteSession(deps: SessionDeps, accountId: string, id: string): Promise<Session> {
  const session = await deps.sessions.markDeleted(accountId, id, deps.clock.now().toISOString());
  if (!session) throw NotFoundError.of('session', id);
  await sessionDeleted(deps, accountId, id);
  return session;
}

/** Sets endedAt (the first end wins); a deleted session cannot be ended. */
export async function endSession(deps: SessionDeps, accountId: string, id: string): Promise<Session> {
  const existing = await getSession(deps, accountId, id);
  if (existing.deletedAt) throw BadRequestError.forField('id', `session '${id}' is deleted`);
  const session = await deps.sessions.markEnded(accountId, id, deps.clock.now().toISOString());
  if (!session) throw NotFoundError.of('session', id);
  return session;
}
