/**
 * GET /memory/: the passages, supporting facts and sources of a memory for a query. Lexical and semantic
 * candidates come from the memory's retrieval index; graph memories add a personalized PageRank walk from
 * the query's entities. Files removed from the memory, detached or deleted sessions, and conversation
 * hits outside `after`/`before` are never returned.
 */
import { mapConcurrently, STORE_CONCURRENCY } from '../concurrency';
import { NotFoundError } from '../errors';
import type { StoredChunk } from '../stored-index/chunks';
// the segment modules only: the graph barrel would bring the NLP model into the retrieval bundle
import {
  type CandidateRerank,
  type Embedder,
  type ExternalList,
  type GraphSegment,
  linkQueryToEntities,
  type MemoryFact,
  personalizedPageRank,
  queryTimePrior,
  type RankParamOverrides,
  type RetrievalOutcome,
  retrieve,
  topChunks,
} from '../../engine';
import { type FileRecord, type Memory, type SourceId, sourceRefOf } from '../model';
import type { MemoryStore } from '../ports';
import type { FileStore } from '../files/ports';
import type { IndexCache, LoadedIndex } from '../stored-index/index-cache';
import { emitMetric } from '../metrics';
import { candidateRerank, type Reranking } from '../reranking/candidate-rerank';
import { checkWindow, withinWindow } from './message-search';

export interface RetrievalDeps {
  memories: MemoryStore;
  files: FileStore;
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
  facts: Array<{ content: string }>;
  sources: Source[];
  /** Present when a reranker is configured: whether its order was used (false: it failed or nothing matched; the fused order stands). */
  reranked?: boolean;
}

const GRAPH_CANDIDATES = 100;

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
  const allow = allowedChunks(memory, index, request);
  const rerank = reranker && deps.reranking ? candidateRerank(reranker, request.query, deps.reranking.record) : undefined;
  const outcome = await retrieveFromIndex(index, request, { allow, embedder: deps.indexing.embedder(), rerank });
  const sources = await payloadSources(deps, accountId, index, outcome.items);
  const described = new Set(sources.map((source) => source.id));
  const payload = outcome.payload.map((entry, i) => {
    const item = outcome.items[i];
    const sourceId = item ? publicSourceId(sourceIdOf(index, item)) : undefined;
    return sourceId !== undefined && described.has(sourceId) ? { ...entry, sourceId } : entry;
  });
  return { payload, facts: outcome.facts, sources, ...(reranker ? { reranked: outcome.reranked } : {}) };
}

/**
 * The ranking of one query over a loaded index, with no I/O: lexical and semantic candidates, the graph
 * walk for graph memories, fusion, facts and extracts. The route above and the quality benchmarks both
 * call it, so the benchmarks measure what the API answers.
 */
export function retrieveFromIndex(
  index: Pick<LoadedIndex, 'retrieval' | 'graph'> & Partial<Pick<LoadedIndex, 'chunks'>>,
  request: Pick<RetrievalQuery, 'query' | 'topK' | 'facts' | 'assisted'>,
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
  return retrieve(
    index.retrieval,
    {
      query: request.query,
      topK: request.topK,
      facts: request.facts,
      assisted: request.assisted,
      external: index.graph ? [graphList(index.graph, request.query)] : [],
      memoryFacts: index.graph ? graphFacts(index.graph) : [],
      allow: options.allow,
      prior,
      params: options.params,
    },
    { embedder: options.embedder, ...(options.rerank ? { rerank: options.rerank } : {}) },
  );
}

/**
 * Which chunks (by ordinal) may be answered: not from excluded sources, deleted sessions, or outside the
 * time window. Undefined when every chunk may: retrieval then skips the per-chunk check (it runs over
 * every chunk of the index on each query).
 */
function allowedChunks(memory: Memory, index: LoadedIndex, request: RetrievalQuery): ((ordinal: number) => boolean) | undefined {
  const view = chunkView(index);
  // removed files, detached and deleted sessions are excluded on the memory until an index without them is out
  const excluded = new Set(memory.excludedFileIds);
  const windowed = request.after !== undefined || request.before !== undefined;
  if (excluded.size === 0 && !windowed && view.complete) return undefined;
  return (ordinal) => {
    const chunk = view.byOrdinal[ordinal];
    if (!chunk || excluded.has(chunk.fileId) || excluded.has(chunk.id)) return false; // a chunk id: a deleted message
    return !(windowed && chunk.message && !withinWindow(chunk.message.createdAt, request));
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
    view = { byOrdinal, complete: byOrdinal.every((chunk) => chunk !== undefined), messageTimes, latestMessage };
    chunkViews.set(index.retrieval, view);
  }
  return view;
}

/** The graph side of a query: a personalized PageRank walk from the entities it names, best chunks first. */
export function graphList(graph: GraphSegment, query: string): ExternalList {
  const seeds = new Map(linkQueryToEntities(graph, query).map((link) => [link.entity, link.weight] as const));
  if (seeds.size === 0) return { name: 'graph', hits: [] };
  const { chunkScores } = personalizedPageRank(graph, seeds);
  return {
    name: 'graph',
    hits: topChunks(graph, chunkScores, GRAPH_CANDIDATES).map((hit) => ({ chunkId: hit.chunkId, score: hit.score })),
  };
}

function graphFacts(graph: GraphSegment): MemoryFact[] {
  return graph.facts.texts.map((content, i) => ({ content, chunkId: graph.chunkIds[graph.facts.chunks[i] ?? 0] ?? '' }));
}

/** The files (or sessions) behind the payload, best first, with an address to fetch them. */
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
  const sources = await mapConcurrently([...best], STORE_CONCURRENCY, ([id, score]) => describeSource(deps, accountId, id, score));
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

async function describeSource(deps: RetrievalDeps, accountId: string, id: SourceId, score: number): Promise<Source | undefined> {
  const rounded = Math.round(score * 1e6) / 1e6;
  const source = sourceRefOf(id);
  if (source.kind === 'session') {
    const { sessionId } = source;
    return { id: sessionId, name: `session ${sessionId}`, url: `/sessions/get/${sessionId}`, score: rounded };
  }
  const file: FileRecord | undefined = await deps.files.get(accountId, source.fileId);
  if (!file) return undefined;
  return { id: file.id, name: file.name, url: file.externalUrl ?? `/files/get/${file.id}`, score: rounded };
}
