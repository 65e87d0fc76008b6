/**
 * GET /messages/search: the account's messages ranked for a query, with the list filters plus a time
 * window. Candidates come from the narrowest listing (a session, a customer, or all), capped at
 * the newest MAX_CANDIDATES; messages of deleted sessions are never returned.
 */
import { BadRequestError } from '../errors';
import { mapConcurrently, STORE_CONCURRENCY } from '../concurrency';
import { buildSegment, search } from '../lexical/segment';
import type { Message, MessageRole } from '../model';
import type { MessageStore, SessionStore } from '../ports';

/** How many messages one search ranks at most (the most recent ones when a filter matches more). */
export const MAX_CANDIDATES = 20_000;
const PAGE = 100;

export interface MessageSearch {
  query: string;
  sessionID?: string;
  customerUserID?: string;
  role?: MessageRole;
  after?: string;
  before?: string;
  topK: number;
}

export interface ScoredMessage {
  message: Message;
  score: number;
}

export interface MessageSearchDeps {
  messages: MessageStore;
  sessions: SessionStore;
}

export async function searchMessages(deps: MessageSearchDeps, accountId: string, request: MessageSearch): Promise<ScoredMessage[]> {
  checkWindow(request);
  const candidates = (await candidatesOf(deps, accountId, request)).filter((m) => withinWindow(m.createdAt, request));
  const live = await withoutDeletedSessions(deps, accountId, candidates);
  if (live.length === 0) return [];
  const byId = new Map(live.map((message) => [message.id, message]));
  const segment = buildSegment(live.map((m) => ({ id: m.id, text: m.content, fileId: m.sessionID })));
  return search(segment, request.query, request.topK).flatMap((hit) => {
    const message = byId.get(hit.id);
    return message ? [{ message, score: hit.score }] : [];
  });
}

/** A window whose `after` is not earlier than its `before` holds nothing: refused, naming `after`. */
export function checkWindow(window: { after?: string; before?: string }): void {
  if (window.after && window.before && Date.parse(window.after) >= Date.parse(window.before)) {
    throw BadRequestError.forField('after', 'must be earlier than before');
  }
}

export function withinWindow(createdAt: string, window: { after?: string; before?: string }): boolean {
  const at = Date.parse(createdAt);
  if (window.after && at <= Date.parse(window.after)) return false;
  if (window.before && at >= Date.parse(window.before)) return false;
  return true;
}

/** Every message the filters match, oldest first, keeping only the newest MAX_CANDIDATES. */
async function candidatesOf(deps: MessageSearchDeps, accountId: string, request: MessageSearch): Promise<Message[]> {
  const filter = { sessionID: request.sessionID, customerUserID: request.customerUserID, role: request.role };
  const found: Message[] = [];
  let nextToken: string | undefined;
  do {
    const page = await deps.messages.list(accountId, filter, { limit: PAGE, nextToken });
    found.push(...page.items);
    if (found.length > MAX_CANDIDATES) found.splice(0, found.length - MAX_CANDIDATES);
    nextToken = page.nextToken ?? undefined;
  } while (nextToken);
  return found;
}

async function withoutDeletedSessions(deps: MessageSearchDeps, accountId: string, messages: Message[]): Promise<Message[]> {
  const sessionIds = [...new Set(messages.map((m) => m.sessionID))];
  const sessions = await mapConcurrently(sessionIds, STORE_CONCURRENCY, (id) => deps.sessions.get(accountId, id));
  const live = new Set(sessions.filter((s) => s && !s.deletedAt).map((s) => s?.id));
  return messages.filter((m) => live.has(m.sessionID));
}
