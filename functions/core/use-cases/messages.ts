/** Messages inside sessions. */
import { BadRequestError, ConflictError, NotFoundError } from '../errors';
import type { Message, MessageRole, Page, PageRequest } from '../model';
import type { MemoryStore, Clock, ConversationSyncStore, IdGenerator, QueuePort, SessionLinkStore } from '../ports';
import type { MessageFilter, MessageStore, SessionStore } from '../conversations/ports';
import { conversationChanged } from './conversations';
import { summaryChanged } from './session-summaries';

export interface MessageDeps {
  memories: MemoryStore;
  messages: MessageStore;
  sessions: SessionStore;
  sessionLinks: SessionLinkStore;
  conversationSync: ConversationSyncStore;
  messageIndexSync: ConversationSyncStore;
  /** Each session's messages written or deleted since its summary's last update. */
  summarySync: ConversationSyncStore;
  queue: QueuePort;
  clock: Clock;
  ids: IdGenerator;
}

export interface NewMessage {
  sessionId: string;
  role: MessageRole;
  content: string;
  id?: string;
  customerUserId?: string;
  /** Original time of an imported message. */
  createdAt?: string;
}

export async function createMessage(deps: MessageDeps, accountId: string, input: NewMessage): Promise<Message> {
  // the session comes with its next sequence number (one request); a deleted session's number is spent on nothing
  const sequenced = await deps.sessions.nextMessageSequence(accountId, input.sessionId);
  if (!sequenced) throw BadRequestError.forField('sessionID', `session '${input.sessionId}' does not exist`);
  const { session, sequence } = sequenced;
  if (session.deletedAt) throw BadRequestError.forField('sessionID', `session '${input.sessionId}' is deleted`);
  const now = deps.clock.now().toISOString();
  const message: Message = {
    id: input.id ?? deps.ids.uuid(),
    accountId,
    sessionId: session.id,
    role: input.role,
    content: input.content,
    customerUserId: input.customerUserId ?? session.customerUserId,
    createdAt: input.createdAt ?? now,
    updatedAt: now,
    sequence,
  };
  try {
    await deps.messages.create(message);
  } catch (error) {
    if (error instanceof ConflictError) throw BadRequestError.forField('id', `a message '${message.id}' already exists`);
    throw error;
  }
  await conversationChanged(deps, accountId, session.id);
  await summaryChanged(deps, accountId, session.id, message.id);
  return message;
}

export function listMessages(deps: MessageDeps, accountId: string, filter: MessageFilter, page: PageRequest): Promise<Page<Message>> {
  return deps.messages.list(accountId, filter, page);
}

export async function getMessage(deps: Pick<MessageDeps, 'messages'>, accountId: string, id: string): Promise<Message> {
  const message = await deps.messages.get(accountId, id);
  if (!message) throw NotFoundError.of('message', id);
  return message;
}

/** Deletes a message; the memories its session is attached to drop it from their index. */
export async function deleteMessage(deps: MessageDeps, accountId: string, id: string): Promise<void> {
  const message = await deps.messages.get(accountId, id);
  if (!message || !(await deps.messages.delete(accountId, id))) throw NotFoundError.of('message', id);
  // gone from every memory's answers at once; the next build of each leaves it out (and clears this)
  for (const link of await deps.sessionLinks.listBySession(accountId, message.sessionId)) {
    await deps.memories.excludeSources(accountId, link.memoryId, [{ kind: 'message', messageId: id }]);
  }
  await conversationChanged(deps, accountId, message.sessionId, true);
  await summaryChanged(deps, accountId, message.sessionId, message.id);
}
