/**
 * One retrieval request end to end, as `GET /memory/` runs it over a loaded index: embed the query
 * (when the index has vectors from the same embedder), rank and fuse (rank.ts), let an outside reranker
 * order the best candidates when one is given (rerank-order.ts), merge and de-duplicate into `topK`
 * payload items (dedup.ts), then optionally supporting facts (facts.ts) and, for
 * `assisted`, query-focused extracts in place of raw chunks (extracts.ts). With an answer model
 * configured, use-cases/query-memory.ts puts a grounded answer citing those extracts in front of them.
 */
import { type AllowedSet, allowsOrdinal } from './allowed-search';
import type { Embedder } from './embedder';
import { type PayloadItem, toPayloadItems } from './dedup';
import { queryFocusedExtract } from './extracts';
import { type MemoryFact, type SupportingFact, supportingFacts } from './facts';
import type { RankParamOverrides } from './params';
import type { FusedHit } from './fuse';
import { resolveRankParams } from './params';
import { chunkOrdinals, type ExternalList, rankChunks, type RetrievalMode, type VectorSource } from './rank';
import { type CandidateRerank, rerankHits } from './rerank-order';
import { withReplies } from './reply-turns';
import { hasVectors, type RetrievalIndex } from './retrieval-index';
import type { SentenceEncoder } from './sentence-rerank';
import { queryModel } from './sentence-scorer';

export interface RetrieveRequest {
  query: string;
  /** Payload items to return (1-100). */
  topK: number;
  facts?: boolean;
  assisted?: boolean;
  mode?: RetrievalMode;
  /** Extra ranked lists, e.g. the graph side's PPR scores by chunk id. */
  external?: readonly ExternalList[];
  /** The memory's extracted facts, if any (facts=true prefers them). */
  memoryFacts?: readonly MemoryFact[];
  params?: RankParamOverrides;
  /** Chunks that may be answered; all when absent (see RankRequest.allow). */
  allow?: (ordinal: number) => boolean;
  /** `allow` worked out ahead as a set (see RankRequest.allowed); used in its place when given. */
  allowed?: AllowedSet;
  /** A prior over chunks, e.g. time in queries (see RankRequest.prior). */
  prior?: (ordinal: number) => number;
  /** A factor on a chunk's fused score before payload items are cut (e.g. below 1 for superseded statements). */
  scoreFactor?: (ordinal: number) => number;
  /** Whether a payload chunk's sentences may be facts (see FactsInput.sentenceHolds). */
  sentenceHolds?: (chunkId: string, sentence: string, ordinal: number) => boolean;
  /** A conversation turn's next turn: an asking turn that ranks brings it right after itself (reply-turns.ts). */
  replyOf?: (ordinal: number) => number | undefined;
}

export interface RetrieveOptions {
  /** The embedder the index was built with; another one (by name) is ignored. */
  embedder?: Embedder | null;
  /** An outside reranker over the best fused candidates, before merging (rerank-order.ts). */
  rerank?: CandidateRerank;
  /** Where the semantic candidates come from when not from the index's own vectors (the vector tier). */
  vectorSource?: VectorSource;
}

export interface RetrievalOutcome {
  /** `{content, score}` best first: raw chunks, or extracts when assisted. */
  payload: Array<{ content: string; score: number }>;
  facts: SupportingFact[];
  /** The payload items with provenance (file, chunk ordinals, offsets), in payload order. */
  items: PayloadItem[];
  /** Files of the payload items with their best item score, best first. */
  sources: Array<{ fileId: string; score: number }>;
  /** Whether the semantic side took part. */
  semantic: boolean;
  /** Whether an outside reranker ordered the candidates. */
  reranked: boolean;
}

/**
 * Fused hits fetched beyond topK, so merged and duplicate chunks still leave topK items: first
 * `FIRST_HEADROOM × topK + 10` (ranking depth, the HNSW beam among it, grows with it), and only when
 * those leave fewer than topK items, `HEADROOM × topK + 10`.
 */
const FIRST_HEADROOM = 1.5;
const HEADROOM = 3;

/** Answers one request over `index` (see the module comment). */
export async function retrieve(index: RetrievalIndex, request: RetrieveRequest, options: RetrieveOptions = {}): Promise<RetrievalOutcome> {
  const topK = Math.max(1, Math.floor(request.topK));
  const { items, embedder, queryVector, reranked } = await rankedItems(index, request, topK, options);
  const encoder = embedder && isSentenceEncoder(embedder) ? embedder : null;
  const model = queryModel(index.text, request.query, { encoder, queryVector });
  const payload = items.map((item) => ({
    content: request.assisted ? queryFocusedExtract(model, item.content, index.chunks.titles[item.ordinals[0] ?? 0]) : item.content,
    score: roundScore(item.score),
  }));
  const facts = request.facts
    ? supportingFacts({
        model,
        items,
        chunkIdOf: (ordinal) => index.chunks.ids[ordinal] ?? '',
        memoryFacts: allowedFacts(index, request.memoryFacts ?? [], request.allowed ? allowsOrdinal(request.allowed) : request.allow),
        ...(request.sentenceHolds ? { sentenceHolds: request.sentenceHolds } : {}),
      })
    : [];
  return { payload, facts, items, sources: bestScoreBySource(items), semantic: queryVector !== null, reranked };
}

/**
 * The payload items of a request, ranked at the first depth and, when a full list left fewer than topK
 * items, once more at the full depth. With an outside reranker the full depth is ranked at once (its
 * call is not repeated).
 */
async function rankedItems(index: RetrievalIndex, request: RetrieveRequest, topK: number, options: RetrieveOptions) {
  const deep = Math.max(HEADROOM * topK + 10, options.rerank?.candidates ?? 0);
  let limit = options.rerank ? deep : Math.ceil(FIRST_HEADROOM * topK) + 10;
  for (;;) {
    const { hits: fused, embedder, queryVector } = await rankForQuery(index, { ...request, limit }, options);
    const factored = request.scoreFactor ? adjusted(fused, request.scoreFactor) : fused;
    const { hits, reranked } = options.rerank ? await rerankHits(index, factored, options.rerank) : { hits: factored, reranked: false };
    const items = toPayloadItems(index, withRepliesOf(index, request, hits), topK);
    if (items.length >= topK || fused.length < limit || limit >= deep) return { items, embedder, queryVector, reranked };
    limit = deep;
  }
}

export interface RankedForQuery {
  /** Fused chunk hits, best first. */
  hits: FusedHit[];
  /** The embedder used for the semantic side (null when the index has no vectors of it). */
  embedder: Embedder | null;
  queryVector: Float32Array | null;
}

/**
 * The ranking step alone: the query embedded when the index has vectors of the same embedder, then the
 * lexical, semantic and external lists fused (rank.ts), `limit` hits at most. Message search ranks with it.
 */
export async function rankForQuery(
  index: RetrievalIndex,
  request: Pick<RetrieveRequest, 'query' | 'mode' | 'external' | 'params' | 'allow' | 'allowed' | 'prior'> & { limit: number },
  options: RetrieveOptions = {},
): Promise<RankedForQuery> {
  const searchable = hasVectors(index) || options.vectorSource !== undefined;
  const embedder = options.embedder && options.embedder.name === index.embedder && searchable ? options.embedder : null;
  const queryVector = embedder ? ((await embedder.embed([request.query]))[0] ?? null) : null;
  const k = Math.max(resolveRankParams(request.params).candidates, request.limit);
  const vectorHits =
    queryVector && options.vectorSource && request.mode !== 'lexical' ? await options.vectorSource(queryVector, k) : undefined;
  const hits = rankChunks(index, {
    query: request.query,
    queryVector,
    limit: request.limit,
    mode: request.mode,
    external: request.external,
    params: request.params,
    sentenceEncoder: embedder && isSentenceEncoder(embedder) ? embedder : null,
    allow: request.allow,
    allowed: request.allowed,
    prior: request.prior,
    ...(vectorHits ? { vectorHits } : {}),
  });
  return { hits, embedder, queryVector };
}

/** The hits with the replies of asking turns after them, when the request knows conversation order. */
function withRepliesOf(index: RetrievalIndex, request: RetrieveRequest, hits: FusedHit[]): FusedHit[] {
  const { replyOf, allow, prior } = request;
  return replyOf ? withReplies(hits, { replyOf, allow, prior, textOf: (ordinal) => index.chunks.texts.at(ordinal) ?? '' }) : hits;
}

/** The memory facts whose chunk may be answered (facts without a known chunk are kept). */
function allowedFacts(index: RetrievalIndex, facts: readonly MemoryFact[], allow?: (ordinal: number) => boolean): readonly MemoryFact[] {
  if (!allow || facts.length === 0) return facts;
  const ordinals = chunkOrdinals(index);
  return facts.filter((fact) => {
    const ordinal = fact.chunkId === undefined ? undefined : ordinals.get(fact.chunkId);
    return ordinal === undefined || allow(ordinal);
  });
}

/** Hits with their scores times `factor`, best first again. */
function adjusted(hits: readonly FusedHit[], factor: (ordinal: number) => number): FusedHit[] {
  return hits.map((hit) => ({ ...hit, score: hit.score * factor(hit.ordinal) })).sort((a, b) => b.score - a.score);
}

function bestScoreBySource(items: readonly PayloadItem[]): Array<{ fileId: string; score: number }> {
  const best = new Map<string, number>();
  for (const item of items) best.set(item.fileId, Math.max(best.get(item.fileId) ?? 0, item.score));
  return [...best].map(([fileId, score]) => ({ fileId, score: roundScore(score) })).sort((a, b) => b.score - a.score);
}

function isSentenceEncoder(embedder: Embedder): embedder is Embedder & SentenceEncoder {
  return typeof (embedder as Partial<SentenceEncoder>).embedOne === 'function';
}

function roundScore(score: number): number {
  return Math.round(score * 1e6) / 1e6;
}
