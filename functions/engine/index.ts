/**
 * The engine's public surface: what the service (core, adapters, entry points) uses of the search and
 * graph engine to chunk, index and query, and nothing more. Building a memory's knowledge graph (and the
 * text analysis graph extractors ground mentions with) has its own door, `./graph/index.ts`, used by the
 * worker alone: it loads the NLP model, which the API functions' bundles then do not carry. Code outside
 * `functions/engine/` imports from these two files only (the layering rule in .dependency-cruiser.cjs holds
 * it so); the rooms behind them are free to change shape. Pure: the engine does no I/O.
 */

// text: chunking and token counts
export { chunkText, GRAPH_CHUNK_DEFAULTS, VECTOR_CHUNK_DEFAULTS, type ChunkOptions } from './text/chunker';
export { countTokens, estimateTokens, loadTokenizer } from './text/tokens';

// retrieval: the index a memory version publishes, and the query over it
export { normalizeInPlace, type Embedder } from './retrieval/embedder';
export { deserializeRetrievalIndex, serializeRetrievalIndex } from './retrieval/index-format';
export { buildRetrievalIndex, type ChunkTable, chunkVector, type RetrievalChunk, type RetrievalIndex } from './retrieval/retrieval-index';
export { mergeRetrievalIndexes } from './retrieval/merge-index';
export { composeRetrievalIndexes, sameDeletions } from './retrieval/compose-index';
export { rankForQuery, retrieve, type RetrievalOutcome } from './retrieval/retrieve';
export { type AllowedSet, allowedSet, allowsOrdinal } from './retrieval/allowed-search';
export { chunkOrdinals, type ExternalList, type VectorSource } from './retrieval/rank';
export type { CandidateRerank } from './retrieval/rerank-order';
export type { RankParamOverrides } from './retrieval/params';
export { queryTimePrior, timePrior, type TimePriorParams } from './retrieval/time-prior';
export type { MemoryFact } from './retrieval/facts';
export { WordVectorEmbedder } from './retrieval/word-vector-embedder';
export { parseWordVectors, type WordVectorTable } from './retrieval/word-vector-table';
export { decodeWordVectorTable, encodeWordVectorTable, type WordVectorSource } from './retrieval/word-vector-binary';

// graph: walked at query time
export type { GraphSnapshot } from './graph/graph-snapshot';
export { applyGraphDelta, type GraphDelta } from './graph/graph-delta-format';
export { buildGraphSegment, type GraphSegment } from './graph/graph-segment';
export { deserializeGraphSegment, serializeGraphSegment } from './graph/graph-segment-format';
export { applySegmentDeltas, type GraphSegmentDelta } from './graph/graph-segment-delta';
export { type SegmentSource, segmentOfSource, sourceOfSegment } from './graph/graph-segment-source';
export { personalizedPageRank, topChunks } from './graph/graph-ppr';
export { linkQueryToEntities } from './graph/query-link';
export { matchEntitiesByName, mentioningChunks, neighboursOf } from './graph/entity-lookup';
export { graphWordVectors, type WordVectors } from './graph/word-vector-typing';

// summaries: a conversation's extractive summary, kept up to date batch by batch
export {
  addToSummary,
  centralSentences,
  emptySummaryState,
  type ExtractiveSummary,
  selectSummary,
  type SummaryMessage,
  type SummaryState,
} from './summary/session-summary';
export { summaryStateFromJson, summaryStateToJson } from './summary/summary-state-format';
export { type DatedFact, datedFacts, holdsAt, type ProfileEntry, profileOf, supersededChunks } from './graph/dated-facts';
