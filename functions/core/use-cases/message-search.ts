/**
 * GET /messages/search: the account's messages ranked for a query with the engine memory retrieval uses
 * (BM25 over each message with its context, word-vector similarity, fusion), over the account's message
 * index (functions/core/ingest/message-index.ts), so no request reads the account's messages. Filters
 * (session, customer, role, time window, and `filter`: core/stored-index/search-filter.ts, whose metadata is the
 * session's) are exact: they decide which index entries may rank at all.
 * Each hit is read back from the table, so a message deleted, or of a session deleted, since the last
 * build is never returned. The index follows writes within moments (the worker builds it).
 */
import { objectKeys } from '../object-keys';
import { BadRequestError } from '../errors';
import type { ChunkRecord, StoredChunk } from '../stored-index/chunks';
import type { Message, MessageRole } from '../model';
import type { MessageIndexPointer, MessageIndexStore } from '../ports';
import type { MessageStore, SessionStore } from '../conversations/ports';
import { onCurrentVersion } from './current-version';
import type { IndexCache, LoadedIndex } from '../stored-index/index-cache';
import { cachedAllowedSources } from '../stored-index/allowed-source-cache';
import { chunkPredicate, isFilterEmpty, resolveSources, type SearchFilter } from '../stored-index/search-filter';
import { allowedSet, allowsOrdinal, type Embedder, rankForQuery, timePrior } from '../../engine';
import { tierSourceOf } from '../vector-tier/candidates';
import type { VectorTierSetup } from '../vector-tier/ports';

export interface MessageSearch {
  query: string;
  sessionId?: string;
  customerUserId?: string;
  role?: MessageRole;
  after?: string;
  before?: string;
  /** GET /messages/search's `filter`: its file conditions hold for no message; its metadata is the session's. */
  filter?: SearchFilter;
  topK: number;
}

export interface ScoredMessage {
  message: Message;
  score: number;
}

export interface MessageSearchDeps {
  messages: MessageStore;
  sessions: SessionStore;
  messageIndexes: MessageIndexStore;
  indexes: IndexCache;
  indexing: { embedder: () => Embedder | null };
  /** The vector tier, when the stage turns it on: a tiered message index's vector candidates come from it. */
  vectors?: VectorTierSetup;
}

/** Hits ranked beyond topK, so messages deleted since the build still leave topK; grown while short. */
const HEADROOM = 10;
const ROUNDS = 3;

export async function searchMessages(deps: MessageSearchDeps, accountId: string, request: MessageSearch): Promise<ScoredMessage[]> {
  checkWindow(request);
  const pointer = await deps.messageIndexes.get(accountId);
  if (!pointer) return [];
  const root = objectKeys.messageIndexRoot(accountId);
  const rereading = { reread: () => deps.messageIndexes.get(accountId), versionOf: (read: MessageIndexPointer) => read.version };
  const index = await onCurrentVersion(pointer, rereading, (current) =>
    deps.indexes.loadBuild(`${accountId}/messages@${current.version}`, root, current.prefix, current.version),
  );
  const messageOf = messagesByOrdinal(index);
  const filtered = await filteredChunks(deps, accountId, index, request.filter);
  // worked out once per request, not once per ranking round
  const allowed = allowedSet(messageOf.length, (ordinal) => {
    const message = messageOf[ordinal];
    return message !== undefined && matches(message, request) && (!filtered || filtered(ordinal));
  });
  const prior = messageTimePrior(index, messageOf, allowsOrdinal(allowed), request.query);
  // a tiered index's vector candidates come from the store, kept to the messages the request allows
  const vectorSource = tierSourceOf(deps.vectors, index, {
    ref: { accountId, messages: true },
    allow: allowsOrdinal(allowed),
    sources: undefined,
  });
  let found: ScoredMessage[] = [];
  for (let round = 0, limit = request.topK + HEADROOM; round < ROUNDS; round++, limit *= 4) {
    const { hits } = await rankForQuery(
      index.retrieval,
      { query: request.query, limit, allowed, ...(prior ? { prior } : {}) },
      { embedder: deps.indexing.embedder(), ...(vectorSource ? { vectorSource } : {}) },
    );
    const ranked = hits.flatMap((hit) => {
      const message = messageOf[hit.ordinal];
      return message ? [{ id: message.id, score: Math.round(hit.score * 1e6) / 1e6 }] : [];
    });
    found = await stillLive(deps, accountId, ranked);
    if (found.length >= request.topK || hits.length < limit) break;
  }
  return found.slice(0, request.topK);
}

/**
 * Time in queries, as GET /memory/ weighs it (engine/retrieval/time-prior.ts): a query that names a time
 * lifts the messages of that time, one that asks for a time those that state one. Relative expressions
 * resolve against the latest message the search may answer (the conversation's, with a customer or session
 * filter), else now.
 */
function messageTimePrior(
  index: LoadedIndex,
  messageOf: ReadonlyArray<IndexedMessage | undefined>,
  allow: (ordinal: number) => boolean,
  query: string,
): ((ordinal: number) => number) | undefined {
  const times = messageTimes(index, messageOf);
  const latest = (): Date => {
    let at = Number.NEGATIVE_INFINITY;
    times.forEach((time, ordinal) => {
      if (time !== undefined && time > at && allow(ordinal)) at = time;
    });
    return new Date(Number.isFinite(at) ? at : Date.now());
  };
  const chunks = {
    timeOf: (ordinal: number) => times[ordinal],
    textOf: (ordinal: number) => index.retrieval.chunks.texts.at(ordinal) ?? '',
  };
  return timePrior(chunks, index.retrieval, query, latest);
}

const timeViews = new WeakMap<LoadedIndex, ReadonlyArray<number | undefined>>();

/** Each ordinal's message time in epoch milliseconds, worked out once per loaded build. */
function messageTimes(index: LoadedIndex, messageOf: ReadonlyArray<IndexedMessage | undefined>): ReadonlyArray<number | undefined> {
  let times = timeViews.get(index);
  if (!times) {
    times = messageOf.map((message) => {
      const at = message ? Date.parse(message.createdAt) : Number.NaN;
      return Number.isNaN(at) ? undefined : at;
    });
    timeViews.set(index, times);
  }
  return times;
}

/**
 * The filter as an ordinal check over the index's chunk records (undefined: no filter). Its source
 * conditions are read against the sessions once per index version and kept: the index holds only
 * messages, and a session's metadata is written once, when it is created, so no later write can change
 * what they allow (file writes, which raise the account's source version, touch no message).
 */
async function filteredChunks(
  deps: MessageSearchDeps,
  accountId: string,
  index: LoadedIndex,
  filter: SearchFilter | undefined,
): Promise<((ordinal: number) => boolean) | undefined> {
  if (!filter || isFilterEmpty(filter)) return undefined;
  const chunks = recordsByOrdinal(index);
  const sources = await cachedAllowedSources(index.retrieval, SESSION_METADATA_VERSION, filter, () => {
    const sourceIds = new Set(chunks.flatMap((chunk) => (chunk ? [chunk.fileId] : [])));
    return resolveSources(filter, sourceIds, {
      files: async () => new Map(),
      sessions: (ids) => deps.sessions.getMany(accountId, ids),
    });
  });
  const matches = chunkPredicate(filter, sources);
  return (ordinal) => {
    const chunk = chunks[ordinal];
    return chunk !== undefined && matches(chunk);
  };
}

/** Session metadata never changes after create: one version for every message-index filter. */
const SESSION_METADATA_VERSION = 0;

type IndexedMessage = NonNullable<StoredChunk['message']>;

const messageViews = new WeakMap<LoadedIndex, ReadonlyArray<IndexedMessage | undefined>>();

/** The indexed message of each ordinal, worked out once per loaded build. */
function messagesByOrdinal(index: LoadedIndex): ReadonlyArray<IndexedMessage | undefined> {
  let view = messageViews.get(index);
  if (!view) {
    view = recordsByOrdinal(index).map((chunk) => chunk?.message);
    messageViews.set(index, view);
  }
  return view;
}

/** The index's chunk records by ordinal (a loaded version lists them; else found by id). */
const recordsByOrdinal = (index: LoadedIndex): ReadonlyArray<ChunkRecord | undefined> =>
  index.records ?? index.retrieval.chunks.ids.map((id) => index.chunks.get(id));

function matches(message: IndexedMessage, request: MessageSearch): boolean {
  if (request.sessionId !== undefined && message.sessionId !== request.sessionId) return false;
  if (request.customerUserId !== undefined && message.customerUserId !== request.customerUserId) return false;
  if (request.role !== undefined && message.role !== request.role) return false;
  return withinWindow(message.createdAt, request);
}

/** The ranked messages as stored now, without those deleted or whose session was deleted. */
async function stillLive(
  deps: MessageSearchDeps,
  accountId: string,
  ranked: Array<{ id: string; score: number }>,
): Promise<ScoredMessage[]> {
  // one batch read of the hits and one of their sessions, not a read each
  const messages = await deps.messages.getMany(
    accountId,
    ranked.map(({ id }) => id),
  );
  const sessions = await deps.sessions.getMany(accountId, [...new Set([...messages.values()].map((m) => m.sessionId))]);
  return ranked.flatMap(({ id, score }) => {
    const message = messages.get(id);
    const session = message && sessions.get(message.sessionId);
    return message && session && !session.deletedAt ? [{ message, score }] : [];
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
