/**
 * The `memory.sync-session` work: the chunks of one session in one memory become exactly its current
 * messages (one chunk per message, with role, customer, session and time), or nothing when the session is
 * detached or deleted; the memory publishes an index with them.
 */
import { type Message, sessionSourceId } from '../model';
import type { MessageStore, SessionLinkStore, SessionStore } from '../ports';
import type { WorkMessage } from '../work';
import type { StoredChunk } from './chunks';
import { type IndexDeps, publishIndex } from './memory-index';

type SyncMessage = Extract<WorkMessage, { kind: 'memory.sync-session' }>;

export interface SyncDeps extends IndexDeps {
  sessions: SessionStore;
  sessionLinks: SessionLinkStore;
  messages: MessageStore;
  clock: { now(): Date };
}

const PAGE = 100;

export async function syncSession(deps: SyncDeps, work: SyncMessage): Promise<void> {
  const { accountId, memoryId, sessionId } = work;
  const [link, session] = await Promise.all([
    deps.sessionLinks.get(accountId, memoryId, sessionId),
    deps.sessions.get(accountId, sessionId),
  ]);
  const live = link !== undefined && session !== undefined && !session.deletedAt;
  const chunks = live ? (await messagesOf(deps, accountId, sessionId)).map(messageChunk) : [];
  await publishIndex(deps, accountId, memoryId, {
    added: new Map([[sessionSourceId(sessionId), chunks]]),
    changes: ({ chunkCount, fileCount }) => ({ chunkCount, fileCount, updatedAt: deps.clock.now().toISOString() }),
  });
}

async function messagesOf(deps: SyncDeps, accountId: string, sessionId: string): Promise<Message[]> {
  const all: Message[] = [];
  let nextToken: string | undefined;
  do {
    const page = await deps.messages.list(accountId, { sessionID: sessionId }, { limit: PAGE, nextToken });
    all.push(...page.items);
    nextToken = page.nextToken ?? undefined;
  } while (nextToken);
  return all;
}

export function messageChunk(message: Message): StoredChunk {
  return {
    id: `msg:${message.id}`,
    fileId: sessionSourceId(message.sessionID),
    text: message.content,
    start: 0,
    end: message.content.length,
    message: {
      id: message.id,
      sessionID: message.sessionID,
      role: message.role,
      customerUserID: message.customerUserID,
      createdAt: message.createdAt,
    },
  };
}
