/**
 * The `session.summarize` work: bring a session's summary up to date with the messages written or
 * deleted since its last update, one update at a time per session (the same pending-changes store and
 * lease as conversation builds, conversation-sync.ts, keyed by session, its entries message ids).
 *
 * Incremental: an update reads only the pending messages by id and adds them to the stored state
 * (engine/summary); the session's earlier messages are not read again. A pending message that is gone
 * (deleted) makes the update start over from the session's live messages. With an answer model
 * configured, the model revises its previous summary with the new messages and the session's most
 * central sentences (bounded, whatever the session's length), its tokens reserved from the account's
 * budget; when it cannot (budget, failure), the extractive summary answers.
 */
import { addToSummary, centralSentences, emptySummaryState, type ExtractiveSummary, selectSummary } from '../../engine';
import { settleReservation, type TokenBudget } from '../answers/grounded-answer';
import { AnswerModelError } from '../answers/ports';
import type { Message } from '../model';
import { objectKeys } from '../object-keys';
import type { Clock, ConversationSyncStore, IdGenerator, ObjectStore } from '../ports';
import type { MessageStore, SessionStore } from '../conversations/ports';
import type { SessionSummarizer, SummaryEvidence } from '../summaries/ports';
import {
  decodeSummaryState,
  deleteStoredSummary,
  encodeSummary,
  encodeSummaryState,
  type StoredSummary,
  type StoredSummaryState,
} from '../summaries/stored-summary';
import type { WorkMessage } from '../work';
import { buildWhileHolding, messagesOf } from './conversation-sync';

type SummarizeWork = Extract<WorkMessage, { kind: 'session.summarize' }>;

export interface SummaryDeps {
  sessions: SessionStore;
  messages: MessageStore;
  /** Pending changes per session: the ids of its messages written or deleted since its last update. */
  summarySync: ConversationSyncStore;
  objects: ObjectStore;
  clock: Clock;
  ids: IdGenerator;
  accounts: TokenBudget;
  /** The configured answer model as a summarizer, or null (made on first use). */
  summaries: { model: () => SessionSummarizer | null };
}

/** Characters of new messages a model call is shown at most (the latest kept). */
const RECENT_CHARS = 24_000;

/** Updates the session's summary while this delivery holds its lease; answers the updates made. */
export function updateSessionSummary(deps: SummaryDeps, work: SummarizeWork, holder: string): Promise<number> {
  const target = { store: deps.summarySync, accountId: work.accountId, target: work.sessionId };
  return buildWhileHolding(deps.clock, target, holder, (pending) =>
    updateSummary(deps, work.accountId, work.sessionId, [...pending.sessions.keys()]),
  );
}

/** One update with these pending message ids; false when the session is gone or deleted (its summary is then deleted). */
async function updateSummary(deps: SummaryDeps, accountId: string, sessionId: string, messageIds: readonly string[]): Promise<boolean> {
  const session = await deps.sessions.get(accountId, sessionId);
  if (!session) return false;
  if (session.deletedAt) {
    await deleteStoredSummary(deps.objects, accountId, sessionId);
    return false;
  }
  const { stored, added } = await takeIn(deps, accountId, sessionId, messageIds);
  addToSummary(
    stored.state,
    added.map((message) => ({ id: message.id, content: message.content })),
  );
  const extractive = selectSummary(stored.state);
  const model = await modelSummary(deps, accountId, stored, added);
  // a failed model call keeps the model's previous summary to revise next time; the extractive one answers meanwhile
  const revisable = model ?? stored.model;
  const next: StoredSummaryState = {
    state: stored.state,
    lastBatch: added.map((message) => message.id),
    ...(revisable ? { model: revisable } : {}),
  };
  const answer: StoredSummary = {
    ...(model ?? extractive),
    messageCount: stored.state.messages,
    updatedAt: deps.clock.now().toISOString(),
    method: model ? 'model' : 'extractive',
  };
  await deps.objects.put(objectKeys.sessionSummaryState(accountId, sessionId), encodeSummaryState(next), 'application/json');
  await deps.objects.put(objectKeys.sessionSummary(accountId, sessionId), encodeSummary(answer), 'application/json');
  return true;
}

/**
 * The state to add to and the messages to add: the stored state and the pending messages it has not
 * taken in; or, when there is no state yet or a pending message is gone, a new state and every live message.
 */
async function takeIn(
  deps: SummaryDeps,
  accountId: string,
  sessionId: string,
  messageIds: readonly string[],
): Promise<{ stored: StoredSummaryState; added: Message[] }> {
  const bytes = await deps.objects.get(objectKeys.sessionSummaryState(accountId, sessionId));
  const previous = bytes ? decodeSummaryState(bytes) : undefined;
  const pending = await deps.messages.getMany(accountId, messageIds);
  const found = [...pending.values()].filter((message) => message.sessionId === sessionId);
  if (!previous || found.length < new Set(messageIds).size) {
    return { stored: { state: emptySummaryState(), lastBatch: [] }, added: await messagesOf(deps, accountId, sessionId) };
  }
  const seen = new Set(previous.lastBatch);
  return { stored: previous, added: found.filter((message) => !seen.has(message.id)).sort(inListingOrder) };
}

const inListingOrder = (a: Message, b: Message): number =>
  a.createdAt.localeCompare(b.createdAt) || (a.sequence ?? 0) - (b.sequence ?? 0) || a.id.localeCompare(b.id);

/**
 * The model's summary revised with `added`, when a model is configured and the budget covers the call;
 * the previous one when nothing was added; undefined otherwise (the extractive summary then answers).
 */
async function modelSummary(
  deps: SummaryDeps,
  accountId: string,
  stored: StoredSummaryState,
  added: readonly Message[],
): Promise<ExtractiveSummary | undefined> {
  const model = deps.summaries.model();
  if (!model) return undefined;
  if (added.length === 0) return stored.model;
  const evidence: SummaryEvidence = {
    ...(stored.model ? { previous: stored.model } : {}),
    central: centralSentences(stored.state),
    recent: latestWithin(added, RECENT_CHARS).map(({ role, content, createdAt }) => ({ role, content, createdAt })),
  };
  const reserved = model.maxTokens(evidence);
  if (!(await deps.accounts.reserveTokens(accountId, reserved))) return undefined;
  let used = 0;
  try {
    const answer = await model.summarize(evidence);
    used = answer.tokensUsed;
    return { summary: answer.summary, keyPoints: answer.keyPoints };
  } catch (error) {
    if (!(error instanceof AnswerModelError)) throw error;
    used = error.tokensUsed;
    return undefined;
  } finally {
    await settleReservation({ budget: deps.accounts, ids: deps.ids }, accountId, reserved - used);
  }
}

/** The latest messages whose content fits in `chars` (at least the last one), oldest first. */
function latestWithin(messages: readonly Message[], chars: number): Message[] {
  const kept: Message[] = [];
  let total = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (!message || (kept.length > 0 && total + message.content.length > chars)) break;
    kept.unshift(message);
    total += message.content.length;
  }
  return kept;
}
