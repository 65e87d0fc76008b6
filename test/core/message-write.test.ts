/**
 * A message write over memory stores: the session comes with its next sequence number, in the one store
 * request that takes the number (`SessionStore.nextMessageSequence`); the write reads the session no other
 * way. A missing or deleted session is refused, naming `sessionID`.
 */
import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../../functions/core/errors';
import type { SessionStore } from '../../functions/core/conversations/ports';
import { createMessage } from '../../functions/core/use-cases/messages';
import { createSession, deleteSession } from '../../functions/core/use-cases/sessions';
import { memoryDeps } from '../support/memory';

/** The deps with a session store that counts the sessions it is asked to read. */
function countingReads() {
  const deps = memoryDeps();
  const reads = { count: 0 };
  const inner = deps.sessions;
  const sessions: SessionStore = Object.assign(Object.create(inner) as SessionStore, {
    get: (accountId: string, id: string) => {
      reads.count += 1;
      return inner.get(accountId, id);
    },
  });
  return { deps: { ...deps, sessions }, reads };
}

describe('createMessage', () => {
  it('numbers the messages of a session in writing order, reading the session only with its number', async () => {
    const { deps, reads } = countingReads();
    const session = await createSession(deps, 'acct', { customerUserId: 'customer' });
    reads.count = 0;
    const first = await createMessage(deps, 'acct', { sessionId: session.id, role: 'user', content: 'one' });
    const second = await createMessage(deps, 'acct', { sessionId: session.id, role: 'assistant', content: 'two' });
    expect([first.sequence, second.sequence]).toEqual([1, 2]);
    expect(first.customerUserId).toBe('customer'); // the session's, read with the number
    expect(reads.count).toBe(0);
  });

  it('refuses a missing session and a deleted one, naming sessionID', async () => {
    const { deps } = countingReads();
    const missing = createMessage(deps, 'acct', { sessionId: 'no-such-session', role: 'user', content: 'x' });
    await expect(missing).rejects.toBeInstanceOf(BadRequestError);
    await expect(missing).rejects.toThrow(/sessionID: .*does not exist/);
    const session = await createSession(deps, 'acct', {});
    await deleteSession(deps, 'acct', session.id);
    await expect(createMessage(deps, 'acct', { sessionId: session.id, role: 'user', content: 'x' })).rejects.toThrow(
      /sessionID: .*is deleted/,
    );
    expect((await deps.messages.list('acct', { sessionId: session.id }, { limit: 10 })).items).toEqual([]);
  });
});
