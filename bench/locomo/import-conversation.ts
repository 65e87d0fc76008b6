/**
 * One LoCoMo conversation loaded the way a client would, over the API: a vector memory, one session per
 * LoCoMo session (`<conv>.session_N`), one message per turn, the sessions attached with
 * `POST /memories/add-sessions`, then a wait until the memory's index holds every turn. Sessions are
 * attached one at a time, each once the previous one is indexed: concurrent `memory.sync-session`
 * publishes of one memory write the same `index/v<n>/` prefix and can corrupt each other's objects.
 *
 * Messages: id from the dia_id (`conv-26` + `D1:3` → `conv-26.D1.3`), `createdAt` the session's start
 * plus one second per turn, role `user` for speaker_a and `assistant` for speaker_b, and content
 * `Speaker: text`, with ` [shared <caption>]` for a shared image. The speaker's name is in the content
 * because questions name people ("When did Caroline …") and a turn rarely names its own speaker; the
 * caption is the turn's image as the LoCoMo paper's text-only setting gives it to a reader.
 */
import { type ApiClient, inParallel } from '../support/api';
import type { Conversation, Turn } from './dataset';

export interface ImportedConversation {
  conversation: Conversation;
  memoryId: string;
  /** The owning account (the memory's userID). */
  accountId: string;
  /** Message id → dia_id. */
  diaIdOf: ReadonlyMap<string, string>;
}

const CONCURRENCY = 8;
const POLL_MS = 250;
const TIMEOUT_MS = 600_000;

export function messageIdOf(conversationId: string, diaId: string): string {
  return `${conversationId}.${diaId}`.replace(/[^A-Za-z0-9._-]/g, '.');
}

export function contentOf(turn: Turn): string {
  return `${turn.speaker}: ${turn.text}${turn.caption ? ` [shared ${turn.caption}]` : ''}`;
}

export async function importConversation(api: ApiClient, conversation: Conversation): Promise<ImportedConversation> {
  const created = (await api.post('/memories/create', { name: conversation.id, memoryType: 'vector' })).data as { id: string; userID: string };
  const sessionIds = conversation.sessions.map((session) => `${conversation.id}.session_${session.number}`);
  await inParallel(sessionIds.length, CONCURRENCY, (i) => api.post('/sessions/create', { sessionID: sessionIds[i] }));
  const messages = conversation.sessions.flatMap((session, s) =>
    session.turns.map((turn, t) => ({
      diaId: turn.diaId,
      body: {
        sessionID: sessionIds[s] ?? '',
        id: messageIdOf(conversation.id, turn.diaId),
        role: turn.speaker === conversation.speakers[0] ? 'user' : 'assistant',
        content: contentOf(turn),
        createdAt: new Date(session.startedAt.getTime() + t * 1000).toISOString(),
      },
    })),
  );
  await inParallel(messages.length, CONCURRENCY, (i) => api.post('/messages/create', messages[i]?.body));
  let indexed = 0;
  for (const [s, sessionId] of sessionIds.entries()) {
    await api.post('/memories/add-sessions', { memoryID: created.id, sessions: [sessionId] });
    indexed += conversation.sessions[s]?.turns.length ?? 0;
    await untilIndexed(api, created.id, indexed);
  }
  return {
    conversation,
    memoryId: created.id,
    accountId: created.userID,
    diaIdOf: new Map(messages.map((message) => [message.body.id, message.diaId])),
  };
}

/** Polls `GET /memories/get/{id}` until `chunkCount` reaches `expected`. */
async function untilIndexed(api: ApiClient, memoryId: string, expected: number): Promise<void> {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const memory = (await api.get(`/memories/get/${memoryId}`)).data as { chunkCount: number };
    if (memory.chunkCount >= expected) return;
    if (Date.now() > deadline) throw new Error(`memory ${memoryId} holds ${memory.chunkCount} of ${expected} turns after ${TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
