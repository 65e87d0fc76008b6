/**
 * Candidate generation and fusion over a retrieval index: the ranking core of `GET /memory/`.
 *
 * Lists, each scored for its own candidates:
 * - lexical: BM25 of title + text plus `titleWeight` × BM25 of the title field (idf^p, see
 *   lexical-scorer.ts), its top candidates found with dynamic pruning (lexical-top-n.ts), any chunk
 *   scored exactly on demand;
 * - links: title-link feedback from the best lexical chunks (title-links.ts);
 * - semantic: cosine similarity of the query vector, by HNSW when the index has one, else exact;
 * - graph: an optional list from the caller (e.g. PPR over the entity-chunk graph), by chunk id.
 * Fusion (fuse.ts) is weighted by default; the lexical and semantic lists can score any chunk, so a
 * candidate found by one list gets its exact score in the others. Modes: `lexical` (lexical + links),
 * `semantic` (vector list alone) and `fused` (all lists).
 */
import { analyzeInOne } from '../lexical/analyzer';
import { fuseReciprocalRank, fuseWeighted, type FusedHit, type RankedList, type Scored } from './fuse';
import { searchHnsw } from './hnsw';
import { searchAnnParts } from './merge-index';
import { queryTerms } from './lexical-scorer';
import { lexicalTopN } from './lexical-top-n';
import { type AllowedSet, allowedSet, searchAllowedVectors } from './allowed-search';
import { type RankParamOverrides, type RankParams, resolveRankParams } from './params';
import type { RetrievalIndex } from './retrieval-index';
import { linkFeedback } from './title-links';
import { rerankBySentences, type SentenceEncoder } from './sentence-rerank';
import { type ComposedVectors, composedRowScore, searchComposedVectors } from './vector-parts';
import { rowScore, searchExact, type VectorHit } from './vector-segment';

export type RetrievalMode = 'lexical' | 'semantic' | 'fused';

/** A ranked list from outside the index (the graph side): chunk ids with scores. */
export interface ExternalList {
  name: string;
  hits: ReadonlyArray<{ chunkId: string; score: number }>;
  /** Fusion weight; defaults to the `graphWeight` parameter. */
  weight?: number;
}

export interface RankRequest {
  query: string;
  /** The query's vector from the index's embedder; without it the semantic list is empty. */
  queryVector?: Float32Array | null;
  /** How many fused hits to return. */
  limit: number;
  mode?: RetrievalMode;
  /** Extra lists to fuse, e.g. graph PPR scores (the graph hook). */
  external?: readonly ExternalList[];
  params?: RankParamOverrides;
  /** In-process encoder of the index's embedder: enables the sentence rerank (fused mode). */
  sentenceEncoder?: SentenceEncoder | null;
  /**
   * Chunks that may be answered (a filter, removed files, deleted sessions, a time window); all when absent.
   * Every list ranks the allowed chunks alone before it is cut to its candidates, so a selective filter
   * still fills the answer.
   */
  allow?: (ordinal: number) => boolean;
  /** `allow` worked out ahead as a set (allowed-search.ts), e.g. kept per filter; used in its place when given. */
  allowed?: AllowedSet;
  /** A prior over chunks (time in queries: time-prior.ts): every fused candidate's score is multiplied by 1 + prior. */
  prior?: (ordinal: number) => number;
  /**
   * The semantic candidates when they come from outside the index (a `VectorSource`: the vector tier),
   * best first, scored by cosine similarity; the index's own vectors are then not searched.
   */
  vectorHits?: readonly Scored[];
}

/**
 * Where the semantic candidates come from when the index holds no vectors of its own (the vector tier
 * of large memories, docs/scale.md): at most `k` allowed chunks nearest `queryVector`, best first, by
 * ordinal with their cosine similarity.
 */
export type VectorSource = (queryVector: Float32Array, k: number) => Promise<readonly Scored[]>;

/** Fused hits (chunk ordinals), best first. Each list contributes at least `limit` candidates. */
export function rankChunks(index: RetrievalIndex, request: RankRequest): FusedHit[] {
  const resolved = resolveRankParams(request.params);
  const params = { ...resolved, candidates: Math.max(resolved.candidates, request.limit) };
  const mode = request.mode ?? 'fused';
  const lists = rankedLists(index, request, params, mode);
  const depth = mode === 'fused' && request.sentenceEncoder && request.queryVector ? params.sentences.depth : 0;
  const limit = Math.max(request.limit, depth);
  // with a prior every candidate is kept through fusion: the prior may lift one from below the cut
  const kept = request.prior ? Number.MAX_SAFE_INTEGER : limit;
  const fused = params.fusion === 'rrf' ? fuseReciprocalRank(lists, kept, params.rrfK) : fuseWeighted(lists, kept);
  const ranked =
    depth === 0 || !request.sentenceEncoder || !request.queryVector
      ? fused
      : rerankBySentences(index, fused, { encoder: request.sentenceEncoder, queryVector: request.queryVector, ...params.sentences });
  return (request.prior ? withPrior(ranked, request.prior) : ranked).slice(0, request.limit);
}

/** Each hit's score times 1 + its prior, best first again (ties on the lower ordinal). */
function withPrior(hits: readonly FusedHit[], prior: (ordinal: number) => number): FusedHit[] {
  return hits
    .map((hit) => {
      const lift = Math.max(0, prior(hit.ordinal));
      return lift === 0 ? hit : { ...hit, score: hit.score * (1 + lift), parts: { ...hit.parts, prior: lift } };
    })
    .sort((a, b) => b.score - a.score || a.ordinal - b.ordinal);
}

/** The lists the mode fuses (lexical and links, semantic, external), each holding only chunks that may be answered. */
function rankedLists(index: RetrievalIndex, request: RankRequest, params: RankParams, mode: RetrievalMode): RankedList[] {
  const lists: RankedList[] = [];
  const allowed = request.allowed ?? (request.allow ? allowedSet(index.chunks.ids.length, request.allow) : undefined);
  if (mode !== 'semantic') lists.push(...lexicalLists(index, request.query, params, allowed));
  if (mode !== 'lexical' && request.vectorHits) lists.push(sourcedList(request.vectorHits, params, mode));
  else if (mode !== 'lexical' && request.queryVector) lists.push(semanticList(index, request.queryVector, params, mode, allowed));
  if (mode === 'fused') for (const list of request.external ?? []) lists.push(externalList(index, list, params, allowed));
  if (allowed) for (const list of lists) list.hits = list.hits.filter((hit) => allowed.mask[hit.ordinal] === 1);
  return lists;
}

/** The lexical list and, from its best chunks, the title-link list; chunks not allowed neither rank nor lead. */
function lexicalLists(index: RetrievalIndex, query: string, params: RankParams, allowed?: AllowedSet): RankedList[] {
  const fields = [
    { segment: index.text, params: params.text, scale: 1 },
    { segment: index.titles, params: params.title, scale: params.titleWeight },
  ];
  const { hits, scoreOf } = lexicalTopN(fields, queryTerms(query, index.text), params.candidates, allowed?.mask);
  const lexical: RankedList = { name: 'lexical', weight: 1, hits, normalize: 'max', scoreOf };
  if (params.links.weight === 0 || params.links.feedbackChunks <= 0) return [lexical];
  const feedback = linkFeedback({
    table: index.links,
    firstPass: hits,
    feedbackChunks: params.links.feedbackChunks,
    termsOf: (ordinal) => analyzeInOne(index.chunks.texts.at(ordinal) ?? '', index.text.analyzer, index.text.languages),
    fileOf: (ordinal) => index.text.docFiles[ordinal] ?? 0,
  });
  const linked = [...feedback].map(([ordinal, score]) => ({ ordinal, score })).sort((a, b) => b.score - a.score);
  return [lexical, { name: 'links', weight: params.links.weight, hits: linked, normalize: 'none' }];
}

function semanticList(
  index: RetrievalIndex,
  queryVector: Float32Array,
  params: RankParams,
  mode: RetrievalMode,
  allowed: AllowedSet | undefined,
): RankedList {
  const weight = mode === 'semantic' ? 1 : params.semanticWeight;
  const composed = index.vectorParts;
  const vectors = composed ? null : index.vectors;
  const dimensions = composed?.dimensions ?? vectors?.dimensions;
  if (dimensions === undefined || weight === 0) return { name: 'semantic', weight: 0, hits: [], normalize: 'none' };
  if (queryVector.length !== dimensions) {
    throw new RangeError(`query vector has ${queryVector.length} dimensions, the index ${dimensions}`);
  }
  const found = composed ? composedHits(index, composed, queryVector, params, allowed) : segmentHits(index, queryVector, params, allowed);
  const hits = found.map((hit) => ({ ordinal: hit.ordinal, score: hit.score }));
  const scoreOf = composed
    ? (ordinal: number) => composedRowScore(composed, ordinal, queryVector)
    : (ordinal: number) => (vectors ? rowScore(vectors, ordinal, queryVector) : 0);
  return { name: 'semantic', weight, hits, normalize: 'none', scoreOf };
}

/** The semantic candidates of one segment's vectors: by its HNSW graph when it has one, else exact. */
function segmentHits(index: RetrievalIndex, queryVector: Float32Array, params: RankParams, allowed: AllowedSet | undefined): VectorHit[] {
  const vectors = index.vectors;
  if (!vectors) return [];
  const k = params.candidates;
  if (allowed) return searchAllowedVectors({ vectors, ann: index.ann, query: queryVector, k, efSearch: params.efSearch, allowed });
  return index.ann ? searchHnsw(index.ann, vectors, queryVector, k, Math.max(params.efSearch, k)) : searchExact(vectors, queryVector, k);
}

/**
 * The semantic candidates of a composed index: by its segments' HNSW graphs when they all have one (and
 * no filter), else exact over the live (and allowed) rows of each segment, hits merged.
 */
function composedHits(
  index: RetrievalIndex,
  composed: ComposedVectors,
  queryVector: Float32Array,
  params: RankParams,
  allowed: AllowedSet | undefined,
): VectorHit[] {
  const k = params.candidates;
  if (index.annParts && !allowed) return searchAnnParts(index.annParts, queryVector, k, Math.max(params.efSearch, k));
  return searchComposedVectors(composed, queryVector, k, allowed);
}

/** The semantic list of candidates found outside the index: a chunk it did not return counts 0 there. */
function sourcedList(found: readonly Scored[], params: RankParams, mode: RetrievalMode): RankedList {
  const weight = mode === 'semantic' ? 1 : params.semanticWeight;
  return { name: 'semantic', weight, hits: found.slice(0, params.candidates), normalize: 'none' };
}

const ordinalMaps = new WeakMap<RetrievalIndex, Map<string, number>>();

/** Chunk id → ordinal of `index` (built once per index). */
export function chunkOrdinals(index: RetrievalIndex): ReadonlyMap<string, number> {
  let ordinals = ordinalMaps.get(index);
  if (!ordinals) ordinalMaps.set(index, (ordinals = new Map(index.chunks.ids.map((id, ordinal) => [id, ordinal]))));
  return ordinals;
}

/** An external list by ordinal, its allowed hits only, cut to the candidates. */
function externalList(index: RetrievalIndex, list: ExternalList, params: RankParams, allowed: AllowedSet | undefined): RankedList {
  const ordinals = chunkOrdinals(index);
  const hits: Scored[] = [];
  for (const hit of list.hits) {
    const ordinal = ordinals.get(hit.chunkId);
    if (ordinal !== undefined && hit.score > 0 && (!allowed || allowed.mask[ordinal] === 1)) hits.push({ ordinal, score: hit.score });
  }
  hits.sort((a, b) => b.score - a.score);
  return { name: list.name, weight: list.weight ?? params.graphWeight, hits: hits.slice(0, params.candidates), normalize: 'max' };
}
