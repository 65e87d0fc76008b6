/**
 * Session summaries (GET /sessions/summary/{id}): what the worker last stored for the session
 * (ingest/session-summary.ts), read in one object; and the change a message makes, recorded as pending
 * for the session's next update before the work is queued (so a lost message loses no change).
 */
import { NotFoundError } from '../errors';
import { objectKeys } from '../object-keys';
import type { ConversationSyncStore, ObjectStore, QueuePort, SessionStore } from '../ports';
import { decodeSummary } from '../summaries/stored-summary';
import type { WorkMessage } from '../work';

export interface SessionSummary {
  sessionId: string;
  summary: string;
  keyPoints: string[];
  messageCount: number;
  updatedAt: string;
}

export interface SessionSummaryDeps {
  sessions: SessionStore;
  objects: ObjectStore;
}

/** The session's summary; before its first update an empty one as of the session's last change. */
export async function getSessionSummary(deps: SessionSummaryDeps, accountId: string, sessionId: string): Promise<SessionSummary> {
  const session = await deps.sessions.get(accountId, sessionId);
  if (!session) throw NotFoundError.of('session', sessionId);
  const bytes = await deps.objects.get(objectKeys.sessionSummary(accountId, sessionId));
  if (!bytes) return { sessionId, summary: '', keyPoints: [], messageCount: 0, updatedAt: session.updatedAt };
  const { summary, keyPoints, messageCount, updatedAt } = decodeSummary(bytes);
  return { sessionId, summary, keyPoints, messageCount, updatedAt };
}

export interface SummaryChangeDeps {
  summarySync: ConversationSyncStore;
  queue: QueuePort;
}

/** A message of the session was written or deleted: its summary takes it in on its next update. */
export async function summaryChanged(deps: SummaryChangeDeps, accountId: string, sessionId: string, messageId: string): Promise<void> {
  await deps.summarySync.markChanged(accountId, sessionId, [messageId]);
  await deps.queue.send({ kind: 'session.summarize', accountId, sessionId } satisfies WorkMessage);
}
