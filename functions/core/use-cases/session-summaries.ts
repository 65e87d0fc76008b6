/**
 * Session summaries (GET /sessions/summary/{id}): what the worker last stored for the session
 * (ingest/session-summary.ts), read in one object; and the change a message makes, recorded as pending
 * for the session's next update before the work is queued (so a lost message loses no change).
 */
import { NotFoundError } from '../errors';
import { objectKeys } from '../object-keys';
import type { ConversationSyncStore, ObjectStore, QueuePort } from '../ports';
import type { SessionStore } from '../conversations/ports';
import { decodeSummary, type StoredSummary } from '../summaries/stored-summary';
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
  const stored = await readSummary(deps, objectKeys.sessionSummary(accountId, sessionId));
  if (!stored) return { sessionId, summary: '', keyPoints: [], messageCount: 0, updatedAt: session.updatedAt };
  const { summary, keyPoints, messageCount, updatedAt } = stored;
  return { sessionId, summary, keyPoints, messageCount, updatedAt };
}

const READ_TRIES = 3;

/**
 * The stored summary, read again when it does not parse: S3 replaces an object whole, but a local store
 * (s3rver writes the file in place) can answer one half written while the worker replaces it.
 */
async function readSummary(deps: Pick<SessionSummaryDeps, 'objects'>, key: string): Promise<StoredSummary | undefined> {
  for (let attempt = 1; ; attempt++) {
    const bytes = await deps.objects.get(key);
    if (!bytes) return undefined;
    try {
      return decodeSummary(bytes);
    } catch (error) {
      if (!(error instanceof SyntaxError) || attempt >= READ_TRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25 * attempt));
    }
  }
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
