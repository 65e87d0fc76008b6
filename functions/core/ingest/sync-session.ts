/**
 * The `memory.sync-session` work: the chunks of one session in one memory become exactly its current
 * messages (one chunk per message, with role, customer, session and time), or nothing when the session is
 * detached or deleted; the memory publishes an index with them.
 *
 * Each message is indexed with a context that is never returned: the day it was written and the two
 * messages before it in its session. A reply often only makes sense after what it answers ("Yes, last
 * Saturday!"), and questions name days ("on 3 June, 2023"). On the LoCoMo dev split (bench/locomo.ts)
 * this moved Recall@5 from 0.578 to 0.699 and Recall@10 from 0.665 to 0.802.
 */
import { type Message, sessionSourceId } from '../model';
import type { MessageStore, SessionLinkStore, SessionStore } from '../ports';
import type { WorkMessage } from '../work';
import type { StoredChunk } from './chunks';
import { type IndexDeps, publishIndex } from './memory-index';
import { emitMetric } from '../metrics';

type SyncMessage = Extract<WorkMessage, { kind: 'memory.sync-session' }>;

export interface SyncDeps extends IndexDeps {
  sessions: SessionStore;
  sessionLinks: SessionLinkStore;
  messages: MessageStore;
  clock: { now(): Date };
}

const PAGE = 100;
/** Messages before a message indexed with it, and the characters kept of each (their end). */
const CONTEXT_MESSAGES = 2;
const CONTEXT_CHARACTERS = 1_000;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export async function syncSession(deps: SyncDeps, work: SyncMessage): Promise<void> {
  const { accountId, memoryId, sessionId } = work;
  const [link, session] = await Promise.all([
    deps.sessionLinks.get(accountId, memoryId, sessionId),
    deps.sessions.get(accountId, sessionId),
  ]);
  const live = link !== undefined && session !== undefined && !session.deletedAt;
  const messages = live ? await messagesOf(deps, accountId, sessionId) : [];
  const chunks = conversationChunks(messages);
  await publishIndex(deps, accountId, memoryId, {
    added: new Map([[sessionSourceId(sessionId), chunks]]),
    changes: ({ chunkCount, fileCount }) => ({ chunkCount, fileCount, updatedAt: deps.clock.now().toISOString() }),
  });
  const properties = { accountId, memoryId, sessionId, messages: messages.length };
  emitMetric('ConversationSyncs', 1, { properties });
  // lag: from the newest message's last change to its being searchable
  const newest = messages.reduce((latest, message) => Math.max(latest, Date.parse(message.updatedAt)), 0);
  if (newest > 0) emitMetric('ConversationSyncLagSeconds', (deps.clock.now().getTime() - newest) / 1000, { properties });
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

/** The chunks of a session's messages (oldest first), each with its context. */
export function conversationChunks(messages: readonly Message[]): StoredChunk[] {
  return messages.map((message, i) => {
    const before = messages.slice(Math.max(0, i - CONTEXT_MESSAGES), i).map((earlier) => earlier.content.slice(-CONTEXT_CHARACTERS));
    return { ...messageChunk(message), context: [dayOf(message.createdAt), ...before].join('\n') };
  });
}

/** `2023-05-08T13:56:00Z` → `8 May 2023` (UTC). */
function dayOf(instant: string): string {
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? '' : `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
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
