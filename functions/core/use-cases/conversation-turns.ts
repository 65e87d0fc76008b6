/**
 * Conversation order over a loaded index: for each message chunk, the ordinal of the next message of its
 * session (by `createdAt`, then index order, which is writing order for messages of the same time), so
 * retrieval can put the reply after a turn that asks (engine/retrieval/reply-turns.ts). Worked out once
 * per loaded index version and kept with it.
 */
/** What ordering needs of a message chunk's message. */
interface TurnTime {
  sessionId: string;
  createdAt: string;
}

/** Keyed by the retrieval index (one per loaded version). */
const nextTurnTables = new WeakMap<object, Int32Array>();

/**
 * The next turn of an ordinal's session (undefined: none, or not a message), from `messagesOf` (each
 * ordinal's message; read only the first time `key`, the loaded retrieval index, is seen).
 */
export function nextTurns(key: object, messagesOf: () => ReadonlyArray<TurnTime | undefined>): (ordinal: number) => number | undefined {
  let table = nextTurnTables.get(key);
  if (!table) nextTurnTables.set(key, (table = nextTurnTable(messagesOf())));
  const next = table;
  return (ordinal) => {
    const found = next[ordinal] ?? -1;
    return found < 0 ? undefined : found;
  };
}

function nextTurnTable(messageOf: ReadonlyArray<TurnTime | undefined>): Int32Array {
  const table = new Int32Array(messageOf.length).fill(-1);
  const bySession = new Map<string, Array<{ ordinal: number; time: number }>>();
  messageOf.forEach((message, ordinal) => {
    if (!message) return;
    const turns = bySession.get(message.sessionId) ?? [];
    turns.push({ ordinal, time: Date.parse(message.createdAt) || 0 });
    bySession.set(message.sessionId, turns);
  });
  for (const turns of bySession.values()) {
    turns.sort((a, b) => a.time - b.time || a.ordinal - b.ordinal);
    for (let at = 0; at + 1 < turns.length; at++) table[turns[at]?.ordinal ?? 0] = turns[at + 1]?.ordinal ?? -1;
  }
  return table;
}
