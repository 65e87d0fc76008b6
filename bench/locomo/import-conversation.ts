/**
 * One LoCoMo conversation loaded the way a client importing history would, over the API: a vector memory,
 * one session per LoCoMo session (`<load>.<conv>.session_N`, its customer `<load>.<conv>`), each
 * session's turns written in order (sessions in parallel), then every session attached with one
 * `POST /memories/add-sessions`, and a wait until the memory's index holds every turn.
 *
 * Two loads: `spaced` gives each turn the session's start plus one second per turn; `same` gives every
 * turn of a session the session's time (as imported history often has), so order comes from writing.
 * Messages: id from the load and dia_id (`spaced.conv-26.D1.3`), role `user` for speaker_a and
 * `assistant` for speaker_b, and content `Speaker: text`, with ` [shared <caption>]` for a shared image.
 * The speaker's name is in the content because questions name people ("When did Caroline …") and a turn
 * rarely names its own speaker; the caption is the turn's image as the LoCoMo paper's text-only setting
 * gives it to a reader.
 */
import { type ApiClient, inParallel } from '../support/api';
import type { Conversation, Turn } from './dataset';

export type Load = 'spaced' | 'same';

export interface ImportedConversation {
  conversation: Conversation;
  load: Load;
  /** The customer of every session of this conversation in this load (message search filters on it). */
  customerUserID: string;
  memoryId: string;
  /** The owning account (the memory's userID). */
  accountId: string;
  /** Message id → dia_id. */
  diaIdOf: ReadonlyMap<string, string>;
}

const CONCURRENCY = 8;
const POLL_MS = 250;
const TIMEOUT_MS = 600_000;

function messageIdOf(conversationId: string, diaId: string): string {
  return `${conversationId}.${diaId}`.replace(/[^A-Za-z0-9._-]/g, '.');
}

export function contentOf(turn: Turn): string {
  return `${turn.speaker}: ${turn.text}${turn.caption ? ` [shared ${turn.caption}]` : ''}`;
}

export async function importConversation(api: ApiClient, conversation: Conversation, load: Load): Promise<ImportedConversation> {
  const key = `${load}.${conversation.id}`;
  const created = (await api.post('/memories/create', { name: key, memoryType: 'vector' })).data as { id: string; userID: string };
  const sessionIds = conversation.sessions.map((session) => `${key}.session_${session.number}`);
  await inParallel(sessionIds.length, CONCURRENCY, (i) => api.post('/sessions/create', { sessionID: sessionIds[i], customerUserID: key }));
  const bodies = conversation.sessions.map((session, s) =>
    session.turns.map((turn, t) => ({
      diaId: turn.diaId,
      body: {
        sessionID: sessionIds[s] ?? '',
        id: messageIdOf(key, turn.diaId),
        role: turn.speaker === conversation.speakers[0] ? 'user' : 'assistant',
        content: contentOf(turn),
        createdAt: new Date(session.startedAt.getTime() + (load === 'spaced' ? t * 1000 : 0)).toISOString(),
      },
    })),
  );
  // a session's turns one after the other, as they were written; sessions side by side
  await inParallel(bodies.length, CONCURRENCY, async (s) => {
    for (const message of bodies[s] ?? []) await api.post('/messages/create', message.body);
  });
  await api.post('/memories/add-sessions', { memoryID: created.id, sessions: sessionIds });
  const messages = bodies.flat();
  await untilIndexed(api, created.id, messages.length);
  return {
    conversation,
    load,
    customerUserID: key,
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
    if (Date.now() > deadline)
      throw new Error(`memory ${memoryId} holds ${memory.chunkCount} of ${expected} turns after ${TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
