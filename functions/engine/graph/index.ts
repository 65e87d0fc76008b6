/**
 * Graph memories: the public API of the graph library (pure; loads only the NLP model and, when
 * asked, word vectors). Per file: `addFile` (or `extractFile` + `mergeFile`), `removeFile`; for
 * retrieval: `buildGraphSegment` → `serializeGraphSegment` / `deserializeGraphSegment`,
 * `linkQueryToEntities`, `personalizedPageRank`, `topChunks`.
 */
export {
  addFile,
  createMemoryGraph,
  extractFile,
  mergeFile,
  removeFile,
  type ChunkExtraction,
  type FileExtraction,
  type FileSummary,
  type GraphFileInput,
  type GraphSettings,
  type MemoryGraph,
  type RemovalSummary,
} from './graph-build';
export type { GraphChunk, GraphEntity, GraphFact, GraphMention, GraphRelation, KnowledgeGraph, FileContribution } from './graph-model';
export { graphInvariantViolations } from './graph-invariants';
export {
  buildGraphSegment,
  deserializeGraphSegment,
  GRAPH_SEGMENT_FORMAT_VERSION,
  linkQueryToEntities,
  personalizedPageRank,
  serializeGraphSegment,
  topChunks,
  type EntityLink,
  type GraphSegment,
  type PageRankOptions,
  type PageRankResult,
} from './graph-segment';
export { DEFAULT_MATCH_THRESHOLDS, matchReason, type MatchThresholds, type NameForm } from './entity-match';
export { isOntologyName, ONTOLOGIES, ontologySchema, type OntologyName, type OntologySchema } from './ontology';
export { loadGraphWordVectors, type WordVectors } from './word-vectors';
export { normalizeKey } from './normalize';
export { GRAPH_SNAPSHOT_VERSION, restoreMemoryGraph, snapshotGraph, type GraphSnapshot } from './graph-snapshot';
