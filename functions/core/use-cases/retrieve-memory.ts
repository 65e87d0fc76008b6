import { NotFoundError } from '../errors';
// the segment modules only: the graph barrel would bring the NLP model into the retrieval bundle
import {
  type AllowedSet,
  allowsOrdinal,
  type CandidateRerank,
  type Embedder,
  type ExternalList,
  type GraphSegment,
  linkQueryToEntities,
  personalizedPageRank,
  queryTimePrior,
  type RankParamOverrides,
  type RetrievalOutcome,
  retrieve,
  type TimePriorParams,
  topChunks,
  type VectorSource,
} from '../../engine';
import { tierSourceOf } from '../vector-tier/candidates';
import { type Memory, type SourceId, sourceRefOf } from '../model';
import type { ChunkRecord } from '../stored-index/chunks';
import type { LoadedIndex } from '../stored-index/index-cache';
import { cachedSourceRecords, type SourceRecord } from '../stored-index/source-record-cache';
import { emitMetric } from '../metrics';
import { candidateRerank } from '../reranking/candidate-rerank';
import { checkWindow } from './message-search';
import { nextTurns } from './conversation-turns';
import { guessedMemory, rememberMemory, sameRetrievalInputs } from './memory-guess';
import { onCurrentVersion } from './current-version';
import { allowedChunks, chunkIdAllowed, chunkView, filterSources } from './retrieval-scope';
import type { RetrievalDeps, RetrievalQuery } from './retrieval-types';

export type { RetrievalDeps, RetrievalQuery } from './retrieval-types';
import {
  type DatedFactView,
  datedFactViews,
  factChunks,
  factFileIds,
  graphFacts,
  publicSourceId,
  sentenceHolds,
  supersededFactor,
} from './retrieval-time';

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

export async function retrieveFromMemory(deps: RetrievalDeps, accountId: string, request: RetrievalQuery): Promise<RetrievalResult> {
  checkWindow(request);
  const started = performance.now();
  // read beside the memory item: the file records an answer names are kept under it (source-record-cache.ts)
  const { memory: reading, sourceVersion } = deps.memoryRecords
    ? deps.memoryRecords.memoryAndSourceVersion(accountId, request.memoryId)
    : { memory: deps.memories.get(accountId, request.memoryId), sourceVersion: deps.files.sourceVersion(accountId) };
  sourceVersion.catch(() => undefined); // a missing memory answers first; a failed read fails the query that awaits it
  const asker = { accountId, sourceVersion };
  const guessed = guessedRetrieval(deps, asker, request);
  const memory = await reading;
  rememberMemory(deps.memories, accountId, request.memoryId, memory);
  if (!memory) throw NotFoundError.of('memory', request.memoryId);
  // the guess, else the record read; again on a newer version when the one read was collected meanwhile
  const rereading = { reread: () => deps.memories.get(accountId, request.memoryId), versionOf: (read: Memory) => read.indexVersion };
  const result = await onCurrentVersion(memory, rereading, (current) =>
    current === memory && guessed && sameRetrievalInputs(guessed.memory, memory)
      ? guessed.result
      : retrieveFrom(deps, asker, current, request),
  );
  const properties = { accountId, memoryId: memory.id, topK: request.topK };
  emitMetric('RetrievalMs', performance.now() - started, { dimension: memory.memoryType, properties });
  return result;
}

/**
 * The query ranked over the memory record this container last read (memory-guess.ts), started while the
 * record is read again: a warm query's ranking then overlaps the read instead of following it. Started on
 * the next turn of the event loop, so the read is sent first. Answered only when the record read matches.
 */
function guessedRetrieval(
  deps: RetrievalDeps,
  asker: Asker,
  request: RetrievalQuery,
): { memory: Memory; result: Promise<RetrievalResult> } | undefined {
  const memory = guessedMemory(deps.memories, asker.accountId, request.memoryId);
  if (!memory) return undefined;
  const result = new Promise<void>((sent) => setImmediate(sent)).then(() => retrieveFrom(deps, asker, memory, request));
  result.catch(() => undefined); // a guess dropped, or its failure answered by the query that awaits it
  return { memory, result };
}

/** The account asking, and its source version (being read). */
interface Asker {
  accountId: string;
  sourceVersion: Promise<number>;
}

async function retrieveFrom(deps: RetrievalDeps, asker: Asker, memory: Memory, request: RetrievalQuery): Promise<RetrievalResult> {
  const { accountId } = asker;
  const index = await deps.indexes.load(memory);
  const reranker = deps.reranking?.reranker() ?? null;
  if (!index || index.retrieval.chunks.ids.length === 0)
    return { payload: [], facts: [], sources: [], ...(reranker ? { reranked: false } : {}) };
  const allowedSources = await filterSources(deps, asker, index, request.filter);
  const allowed = allowedChunks(memory, index, request, allowedSources);
  const rerank = reranker && deps.reranking ? candidateRerank(reranker, request.query, deps.reranking.record) : undefined;
  const asOf = request.asOf ?? new Date().toISOString();
  const ref = { accountId, memoryId: memory.id };
  const vectorSource = tierSourceOf(deps.vectors, index, {
    ref,
    allow: allowed ? allowsOrdinal(allowed) : undefined,
    ...(request.filter ? { filter: request.filter } : {}),
    sources: allowedSources,
  });
  const outcome = await retrieveFromIndex(
    index,
    { ...request, asOf },
    { allowed, embedder: deps.indexing.embedder(), rerank, vectorSource },
  );
  return { ...(await withSources(deps, asker, index, outcome)), ...(reranker ? { reranked: outcome.reranked } : {}) };
}

/**
 * The ranked outcome on the wire's terms: passages naming their sources, the sources (files by their
 * records, kept per source version: source-record-cache.ts), facts dated by their message or file.
 */
async function withSources(
  deps: RetrievalDeps,
  asker: Asker,
  index: LoadedIndex,
  outcome: RetrievalOutcome,
): Promise<Omit<RetrievalResult, 'reranked'>> {
  const best = bestScoreBySource(index, outcome.items);
  const factChunk = factChunks(index, outcome.items);
  const fileIds = [...sourceFileIds(best.keys()), ...factFileIds(factChunk, outcome.facts)];
  const files =
    fileIds.length > 0
      ? await cachedSourceRecords(deps.files, asker.accountId, await asker.sourceVersion, fileIds)
      : new Map<string, SourceRecord>();
  const sources = payloadSources(best, files);
  const described = new Set(sources.map((source) => source.id));
  const payload = outcome.payload.map((entry, i) => {
    const item = outcome.items[i];
    const sourceId = item ? publicSourceId(sourceIdOf(index, item)) : undefined;
    return sourceId !== undefined && described.has(sourceId) ? { ...entry, sourceId } : entry;
  });
  return { payload, facts: datedFactViews(factChunk, outcome.facts, files), sources };
}

/**
 * The ranking of one query over a loaded index, with no I/O: lexical and semantic candidates, the graph
 * walk for graph memories, fusion, facts and extracts. The route above and the quality benchmarks both
 * call it, so the benchmarks measure what the API answers.
 */
export function retrieveFromIndex(
  index: Pick<LoadedIndex, 'retrieval' | 'graph'> & Partial<Pick<LoadedIndex, 'chunks' | 'records'>>,
  request: Pick<RetrievalQuery, 'query' | 'topK' | 'facts' | 'assisted' | 'asOf'>,
  options: {
    /** The chunks that may be answered (retrieval-scope.ts); all when absent. */
    allowed?: AllowedSet | undefined;
    embedder: Embedder | null;
    rerank?: CandidateRerank | undefined;
    params?: RankParamOverrides;
    /** Where the semantic candidates come from for a tiered memory (core/vector-tier/candidates.ts). */
    vectorSource?: VectorSource | undefined;
    /** Time prior weights (benchmarks' cross-validation; the defaults otherwise). */
    timePrior?: Partial<TimePriorParams>;
  },
): Promise<RetrievalOutcome> {
  // time in queries: message times come from the chunk records (a bare retrieval index has none)
  const view = index.chunks ? chunkView({ retrieval: index.retrieval, chunks: index.chunks, records: index.records }) : undefined;
  const reference = new Date(view?.latestMessage ?? Date.now());
  const prior = queryTimePrior(index.retrieval, request.query, reference, (ordinal) => view?.messageTimes[ordinal], options.timePrior);
  const asOf = request.asOf ?? new Date().toISOString();
  const allow = options.allowed ? allowsOrdinal(options.allowed) : undefined;
  return retrieve(
    index.retrieval,
    {
      query: request.query,
      topK: request.topK,
      facts: request.facts,
      assisted: request.assisted,
      external: index.graph ? [graphList(index.graph, request.query, chunkIdAllowed(index.retrieval, allow))] : [],
      memoryFacts: index.graph && request.facts ? graphFacts(index.graph, asOf) : [],
      allow,
      allowed: options.allowed,
      prior,
      params: options.params,
      ...(index.graph ? { scoreFactor: supersededFactor(index, index.graph, asOf) } : {}),
      ...(request.facts ? { sentenceHolds: sentenceHolds(recordFinder(index), index.graph, asOf) } : {}),
      ...(view ? { replyOf: nextTurns(index.retrieval, () => view.byOrdinal.map((chunk) => chunk?.message)) } : {}),
    },
    {
      embedder: options.embedder,
      ...(options.rerank ? { rerank: options.rerank } : {}),
      ...(options.vectorSource ? { vectorSource: options.vectorSource } : {}),
    },
  );
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

/** The best item score of each source (file, page or session) behind the payload. */
function bestScoreBySource(
  index: LoadedIndex,
  items: ReadonlyArray<{ fileId: string; score: number; ordinals: readonly number[] }>,
): Map<SourceId, number> {
  const best = new Map<SourceId, number>();
  for (const item of items) {
    const sourceId = sourceIdOf(index, item);
    best.set(sourceId, Math.max(best.get(sourceId) ?? 0, item.score));
  }
  return best;
}

/** The files among `sourceIds` (sessions have no file record). */
const sourceFileIds = (sourceIds: Iterable<SourceId>): string[] =>
  [...sourceIds].map(sourceRefOf).flatMap((source) => (source.kind === 'session' ? [] : [source.fileId]));

/** The files (or sessions) behind the payload, best first, with an address to fetch them. */
function payloadSources(best: ReadonlyMap<SourceId, number>, files: ReadonlyMap<string, SourceRecord>): Source[] {
  const sources = [...best].map(([id, score]) => describeSource(files, id, score));
  return sources.filter((source): source is Source => source !== undefined).sort((a, b) => b.score - a.score);
}

/**
 * A chunk's record by its id and its ordinal in the index: by ordinal when the index lists its records
 * (a loaded version does: no lookup by id over the whole index), else by id.
 */
function recordFinder(
  index: Partial<Pick<LoadedIndex, 'chunks' | 'records'>>,
): ((chunkId: string, ordinal: number) => ChunkRecord | undefined) | undefined {
  const { chunks, records } = index;
  if (!chunks) return undefined;
  return (chunkId, ordinal) => {
    const record = records?.[ordinal];
    return record?.id === chunkId ? record : chunks.get(chunkId);
  };
}

/** The source (a file, the page of a sitemap or crawl, or a session) a payload item comes from. */
function sourceIdOf(index: LoadedIndex, item: { fileId: string; ordinals: readonly number[] }): string {
  const ordinal = item.ordinals[0] ?? 0;
  const chunk = index.records?.[ordinal] ?? index.chunks.get(index.retrieval.chunks.ids[ordinal] ?? '');
  return chunk?.pageId ?? item.fileId;
}

/** A source as `sources` lists it; a file no longer found (deleted meanwhile) is left out. */
function describeSource(files: ReadonlyMap<string, SourceRecord>, id: SourceId, score: number): Source | undefined {
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
