/**
 * GET /memory/: the passages, supporting facts and sources of a memory for a query. Lexical and semantic
 * candidates come from the memory's retrieval index; graph memories add a personalized PageRank walk from
 * the query's entities. Files removed from the memory, detached or deleted sessions, conversation hits
 * outside `after`/`before`, and chunks the `filter` leaves out (core/stored-index/search-filter.ts) are never returned:
 * they are left out before ranking, so a selective filter still fills `topK`.
 *
 * Time (`asOf`, default now): each fact is `{content, validFrom, validTo, sourceId}`, and only facts
 * holding at `asOf` are answered (stated by then, not yet replaced; sentences of messages written after
 * it neither, nor sentences holding a replaced statement). A passage stating something replaced by `asOf`
 * (a superseded statement of a single-valued relation, dated-facts.ts) scores `SUPERSEDED_PASSAGE_FACTOR`
 * of its fused score, so of two contradicting passages the current one ranks first.
 */
import { NotFoundError } from '../errors';
import type { StoredChunk } from '../stored-index/chunks';
// the segment modules only: the graph barrel would bring the NLP model into the retrieval bundle
import {
  type CandidateRerank,
  chunkOrdinals,
  type Embedder,
  datedFacts,
  type ExternalList,
  type GraphSegment,
  holdsAt,
  linkQueryToEntities,
  type MemoryFact,
  personalizedPageRank,
  queryTimePrior,
  type RankParamOverrides,
  type RetrievalOutcome,
  retrieve,
  supersededChunks,
  topChunks,
} from '../../engine';
import { type FileRecord, type Memory, type SourceId, sourceRefOf } from '../model';
import type { MemoryStore, SessionStore } from '../ports';
import {
  type AllowedSources,
  chunkPredicate,
  isFilterEmpty,
  resolveSources,
  type SearchFilter,
  type SourceLookup,
} from '../stored-index/search-filter';
import type { FileStore } from '../files/ports';
import type { IndexCache, LoadedIndex } from '../stored-index/index-cache';
import { emitMetric } from '../metrics';
import { candidateRerank, type Reranking } from '../reranking/candidate-rerank';
import { checkWindow, withinWindow } from './message-search';

export interface RetrievalDeps {
  memories: MemoryStore;
  files: FileStore;
  sessions: Pick<SessionStore, 'get'>;
  indexes: IndexCache;
  indexing: { embedder: () => Embedder | null };
  /** The reranker of the fused candidates, when one is configured (core/reranking). */
  reranking?: Reranking;
}

export interface RetrievalQuery {
  memoryId: string;
  query: string;
  topK: number;
  facts: boolean;
  assisted: boolean;
  after?: string;
  before?: string;
  /** Conditions every passage, fact and source holds (GET /memory/'s `filter`). */
  filter?: SearchFilter;
  /** ISO 8601; default now. */
  asOf?: string;
}

/** A supporting fact on the wire's terms: when it held (`validFrom` null when its source is gone) and what stated it. */
interface DatedFactView {
  content: string;
  validFrom: string | null;
  validTo: string | null;
  sourceId: string | null;
}

interface Source {
  id: string;
  name: string;
  url: string;
  score: number;
}

export interface RetrievalResult {
  /** Best first; `sourceId` names the entry of `sources` the passage comes from. */
  payload: Array<{ content: string; score: number; sourceId?: string }>;
  facts: DatedFactView[];
  sources: Source[];
  /** Present when a reranker is configured: whether its order was used (false: it failed or nothing matched; the fused order stands). */
  reranked?: boolean;
}

const GRAPH_CANDIDATES = 100;
/** The score factor of a passage stating only what `asOf` had seen replaced (see the module comment). */
const SUPERSEDED_PASSAGE_FACTOR = 0.85;

export async function retrieveFromMemory(deps: RetrievalDeps, accountId: string, request: RetrievalQuery): Promise<RetrievalResult> {
  checkWindow(request);
  const started = performance.now();
  const memory = await deps.memories.get(accountId, request.memoryId);
  if (!memory) throw NotFoundError.of('memory', request.memoryId);
  const result = await retrieveFrom(deps, accountId, memory, request);
  const properties = { accountId, memoryId: memory.id, topK: request.topK };
  emitMetric('RetrievalMs', performance.now() - started, { dimension: memory.memoryType, properties });
  return result;
}

async function retrieveFrom(deps: RetrievalDeps, accountId: string, memory: Memory, request: RetrievalQuery): Promise<RetrievalResult> {
  const index = await deps.indexes.load(memory);
  const reranker = deps.reranking?.reranker() ?? null;
  if (!index || index.retrieval.chunks.ids.length === 0)
    return { payload: [], facts: [], sources: [], ...(reranker ? { reranked: false } : {}) };
  const lookup = sourceLookup(deps, accountId);
  const allowedSources = request.filter ? await resolveSources(request.filter, chunkView(index).sourceIds, lookup) : undefined;
  const allow = allowedChunks(memory, index, request, allowedSources);
  const rerank = reranker && deps.reranking ? candidateRerank(reranker, request.query, deps.reranking.record) : undefined;
  const asOf = request.asOf ?? new Date().toISOString();
  const outcome = await retrieveFromIndex(index, { ...request, asOf }, { allow, embedder: deps.indexing.embedder(), rerank });
  const sources = await payloadSources(deps, accountId, index, outcome.items);
  const described = new Set(sources.map((source) => source.id));
  const payload = outcome.payload.map((entry, i) => {
    const item = outcome.items[i];
    const sourceId = item ? publicSourceId(sourceIdOf(index, item)) : undefined;
    return sourceId !== undefined && described.has(sourceId) ? { ...entry, sourceId } : entry;
  });
  const facts = await datedFactViews(deps, accountId, index, outcome.facts);
  return { payload, facts, sources, ...(reranker ? { reranked: outcome.reranked } : {}) };
}

/**
 * The ranking of one query over a loaded index, with no I/O: lexical and semantic candidates, the graph
 * walk for graph memories, fusion, facts and extracts. The route above and the quality benchmarks both
 * call it, so the benchmarks measure what the API answers.
 */
export function retrieveFromIndex(
  index: Pick<LoadedIndex, 'retrieval' | 'graph'> & Partial<Pick<LoadedIndex, 'chunks'>>,
  request: Pick<RetrievalQuery, 'query' | 'topK' | 'facts' | 'assisted' | 'asOf'>,
  options: {
    allow?: ((ordinal: number) => boolean) | undefined;
    embedder: Embedder | null;
    rerank?: CandidateRerank | undefined;
    params?: RankParamOverrides;
  },
): Promise<RetrievalOutcome> {
  // time in queries: message times come from the chunk records (a bare retrieval index has none)
  const view = index.chunks ? chunkView({ retrieval: index.retrieval, chunks: index.chunks }) : undefined;
  const reference = new Date(view?.latestMessage ?? Date.now());
  const prior = queryTimePrior(index.retrieval, request.query, reference, (ordinal) => view?.messageTimes[ordinal]);
  const asOf = request.asOf ?? new Date().toISOString();
  return retrieve(
    index.retrieval,
    {
      query: request.query,
      topK: request.topK,
      facts: request.facts,
      assisted: request.assisted,
      external: index.graph ? [graphList(index.graph, request.query, chunkIdAllowed(index.retrieval, options.allow))] : [],
      memoryFacts: index.graph && request.facts ? graphFacts(index.graph, asOf) : [],
      allow: options.allow,
      prior,
      params: options.params,
      ...(index.graph ? { scoreFactor: supersededFactor(index, index.graph, asOf) } : {}),
      ...(request.facts ? { sentenceHolds: sentenceHolds(index.chunks, index.graph, asOf) } : {}),
    },
    { embedder: options.embedder, ...(options.rerank ? { rerank: options.rerank } : {}) },
  );
}

/** Lowers passages stating only what had been replaced by `asOf` (none replaced: no factor at all). */
function supersededFactor(
  index: Pick<LoadedIndex, 'retrieval'>,
  graph: GraphSegment,
  asOf: string,
): ((ordinal: number) => number) | undefined {
  const stale = supersededChunks(graph, asOf);
  if (stale.size === 0) return undefined;
  const ids = index.retrieval.chunks.ids;
  return (ordinal) => (stale.has(ids[ordinal] ?? '') ? SUPERSEDED_PASSAGE_FACTOR : 1);
}

/**
 * A passage's sentence may be a fact at `asOf` unless its message was written after it, or it says what
 * the graph knows did not hold then (it holds the text of a fact or statement replaced by `asOf`, or
 * stated only after it, as a file's newer version does).
 */
function sentenceHolds(
  chunks: ReadonlyMap<string, StoredChunk> | undefined,
  graph: GraphSegment | null,
  asOf: string,
): (chunkId: string, sentence: string) => boolean {
  const notHolding = new Map<string, string[]>();
  for (const fact of graph ? datedFacts(graph) : []) {
    if (fact.chunkId === '' || holdsAt(fact, asOf) || fact.validFrom === '') continue;
    notHolding.set(fact.chunkId, [...(notHolding.get(fact.chunkId) ?? []), fact.content]);
  }
  return (chunkId, sentence) => {
    const createdAt = chunks?.get(chunkId)?.message?.createdAt;
    if (createdAt !== undefined && new Date(createdAt).toISOString() > asOf) return false;
    return !(notHolding.get(chunkId) ?? []).some((content) => sentence.includes(content) || content.includes(sentence));
  };
}

/**
 * Which chunks (by ordinal) may be answered: not from excluded sources, deleted sessions, outside the
 * time window, or left out by the filter (`sources`: what its source conditions allow). Undefined when
 * every chunk may: retrieval then skips the per-chunk check (it runs over every chunk of the index on
 * each query).
 */
function allowedChunks(
  memory: Memory,
  index: LoadedIndex,
  request: RetrievalQuery,
  sources: AllowedSources,
): ((ordinal: number) => boolean) | undefined {
  const view = chunkView(index);
  // removed files, detached and deleted sessions are excluded on the memory until an index without them is out
  const excluded = new Set(memory.excludedFileIds);
  const windowed = request.after !== undefined || request.before !== undefined;
  const filtered = !isFilterEmpty(request.filter);
  if (excluded.size === 0 && !windowed && !filtered && view.complete) return undefined;
  const matches = filtered && request.filter ? chunkPredicate(request.filter, sources) : undefined;
  return (ordinal) => {
    const chunk = view.byOrdinal[ordinal];
    if (!chunk || excluded.has(chunk.fileId)) return false;
    if (matches && !matches(chunk)) return false;
    return !(windowed && chunk.message && !withinWindow(chunk.message.createdAt, request));
  };
}

/** The filter's source conditions read against this account's file and session records, at query time. */
function sourceLookup(deps: RetrievalDeps, accountId: string): SourceLookup {
  return {
    files: (ids) => deps.files.getMany(accountId, ids),
    sessions: async (ids) => {
      const found = await mapConcurrently(ids, STORE_CONCURRENCY, (id) => deps.sessions.get(accountId, id));
      return new Map(found.flatMap((session) => (session ? [[session.id, session] as const] : [])));
    },
  };
}

/** A chunk-id check for lists that name chunks by id (the graph side), from an ordinal check. */
function chunkIdAllowed(
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
  byOrdinal: ReadonlyArray<StoredChunk | undefined>;
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

function chunkView(index: Pick<LoadedIndex, 'retrieval' | 'chunks'>): ChunkView {
  let view = chunkViews.get(index.retrieval);
  if (!view) {
    const byOrdinal = index.retrieval.chunks.ids.map((id) => index.chunks.get(id));
    const messageTimes = byOrdinal.map((chunk) => (chunk?.message ? Date.parse(chunk.message.createdAt) : undefined));
    const known = messageTimes.filter((time): time is number => time !== undefined && Number.isFinite(time));
    const latestMessage = known.length > 0 ? known.reduce((latest, time) => Math.max(latest, time)) : undefined;
    const sourceIds = new Set(byOrdinal.flatMap((chunk) => (chunk ? [chunk.fileId] : [])));
    view = { byOrdinal, complete: byOrdinal.every((chunk) => chunk !== undefined), messageTimes, latestMessage, sourceIds };
    chunkViews.set(index.retrieval, view);
  }
  return view;
}

/**
 * The graph side of a query: a personalized PageRank walk from the entities it names, best chunks first;
 * with `allow`, chunks not allowed are left out before the list is cut (so the list stays full).
 */
export function graphList(graph: GraphSegment, query: string, allow?: (chunkId: string) => boolean): ExternalList {
  const seeds = new Map(linkQueryToEntities(graph, query).map((link) => [link.entity, link.weight] as const));
  if (seeds.size === 0) return { name: 'graph', hits: [] };
  const { chunkScores } = personalizedPageRank(graph, seeds);
  if (allow)
    chunkScores.forEach((score, chunk) => {
      if (score > 0 && !allow(graph.chunkIds[chunk] ?? '')) chunkScores[chunk] = 0;
    });
  return {
    name: 'graph',
    hits: topChunks(graph, chunkScores, GRAPH_CANDIDATES).map((hit) => ({ chunkId: hit.chunkId, score: hit.score })),
  };
}

/** The graph's facts holding at `asOf` (unknown start: held since its source, so kept). */
function graphFacts(graph: GraphSegment, asOf: string): MemoryFact[] {
  return datedFacts(graph)
    .filter((fact) => holdsAt(fact, asOf))
    .map(({ content, chunkId, fileId, validFrom, validTo, sourceId }) => ({
      content,
      ...(chunkId === '' ? {} : { chunkId }),
      ...(fileId === undefined ? {} : { fileId }),
      validFrom,
      validTo,
      ...(sourceId === undefined ? {} : { sourceId }),
    }));
}

/**
 * The facts on the wire's terms: a fact without a known start (a sentence of a passage, a graph built before
 * validity) starts at its source's time, the message's or the file's; its source is the message, else the file.
 */
async function datedFactViews(
  deps: RetrievalDeps,
  accountId: string,
  index: LoadedIndex,
  facts: readonly MemoryFact[],
): Promise<DatedFactView[]> {
  return mapConcurrently(facts, STORE_CONCURRENCY, async (fact) => {
    const chunk = fact.chunkId === undefined ? undefined : index.chunks.get(fact.chunkId);
    const sourceId = fact.sourceId ?? chunk?.message?.id ?? chunk?.pageId ?? fact.fileId ?? chunk?.fileId ?? null;
    const view = { content: fact.content, validTo: fact.validTo ?? null, sourceId: sourceId && publicSourceId(sourceId) };
    if (fact.validFrom) return { ...view, validFrom: fact.validFrom };
    if (chunk?.message) return { ...view, validFrom: new Date(chunk.message.createdAt).toISOString() };
    const fileId = chunk?.pageId ?? chunk?.fileId ?? fact.fileId;
    const file = fileId === undefined || sourceRefOf(fileId).kind === 'session' ? undefined : await deps.files.get(accountId, fileId);
    return { ...view, validFrom: file?.createdAt ?? null };
  });
}

/**
 * The files (or sessions) behind the payload, best first, with an address to fetch them. The files'
 * records are read in one batched read (a few requests, not one per source: topK 100 names many files).
 */
async function payloadSources(
  deps: RetrievalDeps,
  accountId: string,
  index: LoadedIndex,
  items: ReadonlyArray<{ fileId: string; score: number; ordinals: readonly number[] }>,
): Promise<Source[]> {
  const best = new Map<string, number>();
  for (const item of items) {
    const sourceId = sourceIdOf(index, item);
    best.set(sourceId, Math.max(best.get(sourceId) ?? 0, item.score));
  }
  const fileIds = [...best.keys()].map(sourceRefOf).flatMap((source) => (source.kind === 'session' ? [] : [source.fileId]));
  const files = fileIds.length > 0 ? await deps.files.getMany(accountId, fileIds) : new Map<string, FileRecord>();
  const sources = [...best].map(([id, score]) => describeSource(files, id, score));
  return sources.filter((source): source is Source => source !== undefined).sort((a, b) => b.score - a.score);
}

/** The source (a file, the page of a sitemap or crawl, or a session) a payload item comes from. */
function sourceIdOf(index: LoadedIndex, item: { fileId: string; ordinals: readonly number[] }): string {
  const chunk = index.chunks.get(index.retrieval.chunks.ids[item.ordinals[0] ?? 0] ?? '');
  return chunk?.pageId ?? item.fileId;
}

/** A source's id as `sources` shows it: a session's own id. */
const publicSourceId = (id: SourceId): string => {
  const source = sourceRefOf(id);
  return source.kind === 'session' ? source.sessionId : source.fileId;
};

/** A source as `sources` lists it; a file no longer found (deleted meanwhile) is left out. */
function describeSource(files: ReadonlyMap<string, FileRecord>, id: SourceId, score: number): Source | undefined {
  const rounded = Math.round(score * 1e6) / 1e6;
  const source = sourceRefOf(id);
  if (source.kind === 'session') {
    const { sessionId } = source;
    return { id: sessionId, name: `session ${sessionId}`, url: `/sessions/get/${sessionId}`, score: rounded };
  }
  const file = files.get(source.fileId);
  if (!file) return undefined;
  return { id: file.id, name: file.name, url: file.externalUrl ?? `/files/get/${file.id}`, score: rounded };
}
