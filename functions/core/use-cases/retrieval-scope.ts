/**
 * What one memory retrieval may answer: the chunk records of a loaded index by ordinal (worked out once
 * per index version), and the predicate that leaves out excluded sources, deleted sessions, conversation
 * hits outside `after`/`before` and what the `filter` rules out, before ranking.
 */
import { type AllowedSet, allowedSet, chunkOrdinals } from '../../engine';
import { isExcludedChunk, type Memory } from '../model';
import type { ChunkRecord } from '../stored-index/chunks';
import { cachedAllowedChunks } from '../stored-index/allowed-chunk-cache';
import { cachedAllowedSources } from '../stored-index/allowed-source-cache';
import {
  type AllowedSources,
  chunkPredicate,
  hasSourceConditions,
  isFilterEmpty,
  resolveSources,
  type SearchFilter,
} from '../stored-index/search-filter';
import type { LoadedIndex } from '../stored-index/index-cache';
import { withinWindow } from './message-search';
import type { RetrievalDeps, RetrievalQuery } from './retrieval-types';

/**
 * Which chunks (by ordinal) may be answered: not from excluded sources, deleted sessions, outside the
 * time window, or left out by the filter (`sources`: what its source conditions allow). Undefined when
 * every chunk may: retrieval then checks nothing per chunk. Worked out over every chunk of the index
 * once per (index version, scope) and kept (allowed-chunk-cache.ts), so a warm query reuses the set.
 */
export function allowedChunks(
  memory: Memory,
  index: LoadedIndex,
  request: RetrievalQuery,
  sources: AllowedSources,
): AllowedSet | undefined {
  const view = chunkView(index);
  // removed files, detached and deleted sessions are excluded on the memory until an index without them is out
  const windowed = request.after !== undefined || request.before !== undefined;
  const filtered = !isFilterEmpty(request.filter);
  if (memory.excludedFileIds.length === 0 && !windowed && !filtered && view.complete) return undefined;
  const scope = { excluded: memory.excludedFileIds, after: request.after, before: request.before, filter: request.filter, sources };
  return cachedAllowedChunks(index.retrieval, scope, () =>
    allowedSet(view.byOrdinal.length, chunkCheck(view, memory, request, filtered ? request.filter : undefined, sources)),
  );
}

/** The per-chunk check behind `allowedChunks`. */
function chunkCheck(
  view: ChunkView,
  memory: Memory,
  request: RetrievalQuery,
  filter: SearchFilter | undefined,
  sources: AllowedSources,
): (ordinal: number) => boolean {
  const excluded = new Set(memory.excludedFileIds);
  const windowed = request.after !== undefined || request.before !== undefined;
  const matches = filter ? chunkPredicate(filter, sources) : undefined;
  return (ordinal) => {
    const chunk = view.byOrdinal[ordinal];
    if (!chunk || isExcludedChunk(excluded, chunk)) return false;
    if (matches && !matches(chunk)) return false;
    return !(windowed && chunk.message && !withinWindow(chunk.message.createdAt, request));
  };
}

/**
 * What the filter's source conditions allow among the index's sources: worked out from this account's
 * file and session records once per (index version, source version, conditions), then kept, so a warm
 * filtered query reads one item (the source version) and not every record of the index.
 */
export async function filterSources(
  deps: Pick<RetrievalDeps, 'files' | 'sessions'>,
  { accountId, sourceVersion }: { accountId: string; sourceVersion: Promise<number> },
  index: LoadedIndex,
  filter: SearchFilter | undefined,
): Promise<AllowedSources> {
  if (!filter || !hasSourceConditions(filter)) return undefined;
  const version = await sourceVersion;
  return cachedAllowedSources(index.retrieval, version, filter, () =>
    resolveSources(filter, chunkView(index).sourceIds, {
      files: (ids) => deps.files.getMany(accountId, ids),
      sessions: (ids) => deps.sessions.getMany(accountId, ids),
    }),
  );
}

/** A chunk-id check for lists that name chunks by id (the graph side), from an ordinal check. */
export function chunkIdAllowed(
  retrieval: LoadedIndex['retrieval'],
  allow: ((ordinal: number) => boolean) | undefined,
): ((chunkId: string) => boolean) | undefined {
  if (!allow) return undefined;
  const ordinals = chunkOrdinals(retrieval);
  return (chunkId) => {
    const ordinal = ordinals.get(chunkId);
    return ordinal !== undefined && allow(ordinal);
  };
}

/** A loaded index's chunk records by ordinal, worked out once per index version. */
interface ChunkView {
  byOrdinal: ReadonlyArray<ChunkRecord | undefined>;
  /** Every ordinal has its chunk record. */
  complete: boolean;
  /** A message chunk's `createdAt` (epoch ms) by ordinal; undefined for other chunks. */
  messageTimes: ReadonlyArray<number | undefined>;
  /** The latest message's time: what "yesterday" in a query is relative to (now when there is none). */
  latestMessage: number | undefined;
  /** The sources (files and sessions) the chunks come from. */
  sourceIds: ReadonlySet<string>;
}

/** Keyed by the retrieval index: one per loaded index version. */
const chunkViews = new WeakMap<object, ChunkView>();

export function chunkView(index: Pick<LoadedIndex, 'retrieval' | 'chunks' | 'records'>): ChunkView {
  let view = chunkViews.get(index.retrieval);
  if (!view) {
    view = viewOf(index.records ?? index.retrieval.chunks.ids.map((id) => index.chunks.get(id)));
    chunkViews.set(index.retrieval, view);
  }
  return view;
}

/** The view of the records, in one pass (a cold container's first query makes it over every chunk). */
function viewOf(byOrdinal: ReadonlyArray<ChunkRecord | undefined>): ChunkView {
  const messageTimes: Array<number | undefined> = new Array(byOrdinal.length);
  const sourceIds = new Set<string>();
  let complete = true;
  let latestMessage: number | undefined;
  for (let ordinal = 0; ordinal < byOrdinal.length; ordinal++) {
    const chunk = byOrdinal[ordinal];
    if (!chunk) {
      complete = false;
      continue;
    }
    sourceIds.add(chunk.fileId);
    if (!chunk.message) continue;
    const time = Date.parse(chunk.message.createdAt);
    messageTimes[ordinal] = time;
    if (Number.isFinite(time) && (latestMessage === undefined || time > latestMessage)) latestMessage = time;
  }
  return { byOrdinal, complete, messageTimes, latestMessage, sourceIds };
}
