/**
 * The engine's public surface: everything the service (core, adapters, entry points) uses of the search
 * and graph engine, and nothing more. Code outside `functions/engine/` imports from here only (the
 * layering rule in .dependency-cruiser.cjs holds it so); the rooms behind it (graph/, retrieval/,
 * lexical/, text/) are free to change shape. Pure: the engine does no I/O; what it reads is handed to it.
 */

// text: chunking and token counts
export { chunkText, GRAPH_CHUNK_DEFAULTS, VECTOR_CHUNK_DEFAULTS, type ChunkOptions } from './text/chunker';
export { countTokens, estimateTokens, loadTokenizer } from './text/tokens';

// retrieval: the index a memory version publishes, and the query over it
export { normalizeInPlace, type Embedder } from './retrieval/embedder';
export { deserializeRetrievalIndex, serializeRetrievalIndex } from './retrieval/index-format';
export { buildRetrievalIndex, type RetrievalChunk, type RetrievalIndex } from './retrieval/retrieval-index';
export { rankForQuery, retrieve, type RetrievalOutcome } from './retrieval/retrieve';
export type { ExternalList } from './retrieval/rank';
export type { MemoryFact } from './retrieval/facts';
export { WordVectorEmbedder } from './retrieval/word-vector-embedder';
export { parseWordVectors, type WordVectorTable } from './retrieval/word-vectors';

// graph: a memory's knowledge graph, built per file and walked at query time
export {
  createMemoryGraph,
  extractFile,
  mergeFile,
  removeFile,
  type ChunkExtraction,
  type FileExtraction,
  type GraphFileInput,
  type MemoryGraph,
} from './graph/graph-build';
export { graphInvariantViolations } from './graph/graph-invariants';
export { restoreMemoryGraph, snapshotGraph, type GraphSnapshot } from './graph/graph-snapshot';
export { buildGraphSegment, type GraphSegment } from './graph/graph-segment';
export { deserializeGraphSegment, serializeGraphSegment } from './graph/graph-segment-format';
export { personalizedPageRank, topChunks } from './graph/graph-ppr';
export { linkQueryToEntities } from './graph/query-link';
export { factsOf, matchEntitiesByName, mentioningChunks, neighboursOf } from './graph/entity-lookup';
export { graphWordVectors, type WordVectors } from './graph/word-vectors';

// graph: the text analysis that model-backed and Comprehend extractors ground their mentions with
export { parseText, type ParsedText } from './graph/nlp';
export { extractMentions } from './graph/extract-entities';
export { extractRelations } from './graph/relations';
export { isGenericType, personTypes, type OntologySchema, type TextPattern } from './graph/ontology';
export { looksLikeAcronym, normalizeKey, singularKey } from './graph/normalize';
