/**
 * Conversation traffic as clients send it, over the API: a history imported in one call (sessions of
 * existing messages attached at once) and a burst of messages written concurrently into attached
 * sessions. Used by bench/conversations.ts (timings) and test/api/conversation-traffic.test.ts (checks).
 *
 * Every message carries a codeword of its own (`kw<scenario><n>`), so a search for it finds exactly that
 * message; texts are otherwise alike, as chat turns are.
 */
import { type ApiClient, idOf, inParallel } from './api';

export interface SentMessage {
  id: string;
  sessionId: string;
  content: string;
  codeword: string;
}

export interface Scenario {
  memoryId: string;
  messages: SentMessage[];
  /** The memory's index version before the messages were to be indexed (builds = final − this). */
  versionBefore: number;
  /** performance.now() when the last request of the scenario was answered. */
  sentAt: number;
}

export interface HistoryOptions {
  sessions: number;
  messages: number;
  /** Every turn of a session at the session's time (true), or one second apart (false). */
  sameTime: boolean;
  /** Requests in flight while loading the history (not timed). */
  concurrency?: number;
}

const TOPICS = [
  'the garden',
  'a trip to Lisbon',
  'the new job',
  'piano lessons',
  'the dog',
  'a birthday dinner',
  'the marathon',
  'a leaking roof',
];
const DAY_MS = 86_400_000;
const HISTORY_START = Date.parse('2023-01-02T09:00:00Z');

/**
 * The message's codeword: digits then `q`, so no stemmer rule reaches it. (Base-36 codewords collided:
 * `kwimports` and `kwimportes` both stem to `kwimport`, and a search for one could rank the other first.)
 */
function text(tag: string, n: number, session: number): { content: string; codeword: string } {
  const codeword = `kw${tag}${n}q`;
  const topic = TOPICS[(n + session) % TOPICS.length] ?? 'the weather';
  return { codeword, content: `About ${topic}: remember ${codeword}, it came up in conversation ${session + 1}.` };
}

async function vectorMemory(api: ApiClient, name: string): Promise<string> {
  return idOf(await api.post('/memories/create', { name, memoryType: 'vector' }));
}

async function sessions(api: ApiClient, count: number, concurrency: number): Promise<string[]> {
  return inParallel(count, concurrency, async () => idOf(await api.post('/sessions/create', {})));
}

/** How many of `total` messages go to session `s` of `count` (as even as can be). */
function share(total: number, count: number, s: number): number {
  return Math.floor(total / count) + (s < total % count ? 1 : 0);
}

/** Sessions of existing messages, then all of them attached in one `POST /memories/add-sessions`. */
export async function importHistory(api: ApiClient, tag: string, options: HistoryOptions): Promise<Scenario> {
  const concurrency = options.concurrency ?? 8;
  const memoryId = await vectorMemory(api, `history-${tag}`);
  const sessionIds = await sessions(api, options.sessions, concurrency);
  const planned = sessionIds.flatMap((sessionId, s) =>
    Array.from({ length: share(options.messages, options.sessions, s) }, (_, t) => {
      const at = HISTORY_START + s * DAY_MS + (options.sameTime ? 0 : t * 1000);
      return { sessionId, t, at: new Date(at).toISOString() };
    }),
  );
  const messages: SentMessage[] = [];
  // each session's turns in order (so equal times keep the order they were written in), sessions in parallel
  await inParallel(sessionIds.length, concurrency, async (s) => {
    for (const turn of planned.filter((p) => p.sessionId === sessionIds[s])) {
      const n = planned.indexOf(turn);
      const { content, codeword } = text(tag, n, s);
      const body = { sessionID: turn.sessionId, role: turn.t % 2 ? 'assistant' : 'user', content, createdAt: turn.at };
      messages.push({ id: idOf(await api.post('/messages/create', body)), sessionId: turn.sessionId, content, codeword });
    }
  });
  const versionBefore = await indexVersion(api, memoryId);
  await api.post('/memories/add-sessions', { memoryID: memoryId, sessions: sessionIds });
  return { memoryId, messages, versionBefore, sentAt: performance.now() };
}

/** Sessions attached (and built) first, then `messages` written across them with `concurrency` requests in flight. */
export async function messageBurst(
  api: ApiClient,
  tag: string,
  options: { sessions: number; messages: number; concurrency: number },
): Promise<Scenario> {
  const memoryId = await vectorMemory(api, `burst-${tag}`);
  const sessionIds = await sessions(api, options.sessions, 8);
  await api.post('/memories/add-sessions', { memoryID: memoryId, sessions: sessionIds });
  await untilSearchable(api, { memoryId, messages: [], versionBefore: 0, sentAt: 0 }, 60_000, 1);
  const versionBefore = await indexVersion(api, memoryId);
  const messages = await inParallel(options.messages, options.concurrency, async (n) => {
    const s = n % options.sessions;
    const sessionId = sessionIds[s] ?? '';
    const { content, codeword } = text(tag, n, s);
    const answer = await api.post('/messages/create', { sessionID: sessionId, role: n % 2 ? 'assistant' : 'user', content });
    return { id: idOf(answer), sessionId, content, codeword };
  });
  return { memoryId, messages, versionBefore, sentAt: performance.now() };
}

async function indexVersion(api: ApiClient, memoryId: string): Promise<number> {
  return ((await api.get(`/memories/get/${memoryId}`)).data as { indexVersion: number }).indexVersion;
}

/**
 * Waits until the memory's published index holds every message of the scenario (its `chunkCount`, then
 * a search for the last message's codeword finds it); answers the index version then. It asks again after
 * `pause(ms waited so far)`: 100 ms by default, the bench's resolution; a test that times nothing asks less often.
 */
export async function untilSearchable(
  api: ApiClient,
  scenario: Scenario,
  timeoutMs: number,
  minVersion = 0,
  pause: (waitedMs: number) => number = () => 100,
): Promise<number> {
  const start = performance.now();
  const deadline = start + timeoutMs;
  for (;;) {
    const memory = (await api.get(`/memories/get/${scenario.memoryId}`)).data as { chunkCount: number; indexVersion: number };
    if (memory.chunkCount >= scenario.messages.length && memory.indexVersion >= minVersion) {
      const last = scenario.messages.at(-1);
      if (!last || (await searchFinds(api, scenario.memoryId, last))) return memory.indexVersion;
    }
    if (performance.now() > deadline) {
      throw new Error(
        `memory ${scenario.memoryId} holds ${memory.chunkCount} of ${scenario.messages.length} messages after ${timeoutMs} ms`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, pause(performance.now() - start)));
  }
}

/** `GET /memory/` for the message's codeword answers that message first. */
export async function searchFinds(api: ApiClient, memoryId: string, message: SentMessage): Promise<boolean> {
  const query = new URLSearchParams({ memoryID: memoryId, query: message.codeword, topK: '1' });
  const payload = (await api.get(`/memory/?${query.toString()}`)).payload as Array<{ content: string }>;
  return payload[0]?.content.includes(message.codeword) ?? false;
}
