/**
 * A deleted session over memory stores: its record stays with deletedAt, every one of its messages goes
 * (more than one listing page of them), its summary objects go at once, and the summary update the delete
 * queues (and any later one) writes no summary again.
 */
import { describe, expect, it } from 'vitest';
import { objectKeys } from '../../functions/core/object-keys';
import { createMessage } from '../../functions/core/use-cases/messages';
import { createSession, deleteSession, getSession } from '../../functions/core/use-cases/sessions';
import { drainQueue } from '../support/drain-queue';
import { memoryDeps } from '../support/memory';

describe('deleteSession', () => {
  it('keeps the record and deletes every message and the summary', async () => {
    const deps = memoryDeps();
    const session = await createSession(deps, 'acct', { customerUserId: 'customer' });
    const other = await createSession(deps, 'acct', {});
    for (let i = 0; i < 130; i++) await createMessage(deps, 'acct', { sessionId: session.id, role: 'user', content: `note ${i}` });
    await createMessage(deps, 'acct', { sessionId: other.id, role: 'user', content: 'stays' });
    await drainQueue(deps);
    const summaryKey = objectKeys.sessionSummary('acct', session.id);
    expect(await deps.objects.get(summaryKey)).toBeDefined();

    await deleteSession(deps, 'acct', session.id);
    expect((await getSession(deps, 'acct', session.id)).deletedAt).toEqual(expect.any(String));
    expect((await deps.messages.list('acct', { sessionId: session.id }, { limit: 100 })).items).toEqual([]);
    expect(await deps.objects.get(summaryKey)).toBeUndefined();
    await drainQueue(deps);
    expect(await deps.objects.get(summaryKey)).toBeUndefined();
    expect(await deps.objects.get(objectKeys.sessionSummaryState('acct', session.id))).toBeUndefined();
    expect((await deps.messages.list('acct', { sessionId: other.id }, { limit: 100 })).items.map((m) => m.content)).toEqual(['stays']);
    // a repeated delete answers the same record and finds nothing more to do
    expect((await deleteSession(deps, 'acct', session.id)).deletedAt).toBe((await getSession(deps, 'acct', session.id)).deletedAt);
  });
});
