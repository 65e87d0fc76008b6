/** The sessions group: each route calls one use case and shapes the answer. */
import type { Container } from '../adapters/container';
import type { Session } from '../core/model';
import { createSession, deleteSession, endSession, getSession } from '../core/use-cases/sessions';
import { getSessionSummary } from '../core/use-cases/session-summaries';
import { dataResponse, deletedResponse } from '../http/responses';
import { bind, type BoundRoute } from '../http/handler';
import { sessionsApi } from './schemas';

/** `userID` of a session or message is the account that owns it. */
function presentSession(session: Session) {
  return {
    id: session.id,
    userID: session.accountId,
    customerUserID: session.customerUserId,
    metadata: session.metadata,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    deletedAt: session.deletedAt,
    endedAt: session.endedAt,
  };
}

export const sessionRoutes = (deps: Container): BoundRoute[] => [
  bind(sessionsApi.create, async ({ body: { sessionID, customerUserID, metadata } }, { accountId }) => {
    const session = await createSession(deps, accountId, { id: sessionID, customerUserId: customerUserID, metadata });
    return dataResponse(presentSession(session));
  }),
  bind(sessionsApi.get, async ({ params }, { accountId }) => dataResponse(presentSession(await getSession(deps, accountId, params.id)))),
  bind(sessionsApi.end, async ({ params }, { accountId }) => dataResponse(presentSession(await endSession(deps, accountId, params.id)))),
  bind(sessionsApi.summary, async ({ params }, { accountId }) => {
    const { sessionId, ...summary } = await getSessionSummary(deps, accountId, params.id);
    return dataResponse({ sessionID: sessionId, ...summary });
  }),
  bind(sessionsApi.delete, async ({ params }, { accountId }) => {
    await deleteSession(deps, accountId, params.id);
    return deletedResponse(`session '${params.id}' deleted`);
  }),
];
