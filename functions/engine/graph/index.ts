/**
 * The engine's second door: building a memory's knowledge graph per file, and the text analysis (wink-nlp)
 * that graph extractors ground their mentions with. The worker's alone; the query side is `../index.ts`.
 */
export {
  createMemoryGraph,
  extractFile,
  mergeFile,
  removeFile,
  type ChunkOrigin,
  type ChunkExtraction,
  type FileExtraction,
  type GraphFileInput,
  type MemoryGraph,
} from './graph-build';
export { graphInvariantViolations } from './graph-invariants';
export { refreshValidity } from './validity';
export { type GraphChanges, graphDelta, markFile, trackGraphChanges } from './graph-delta';
export { graphSegmentDelta } from './graph-segment-delta';
export { addFileToScope, emptyValidityScope, type ValidityScope } from './validity-scope';
export { statedDocumentDate } from './document-date';
export { entitySnapshot, portableGraphSnapshot, relationSnapshot, restoreMemoryGraph, snapshotGraph } from './graph-snapshot';
export { parseText, type ParsedText } from './nlp';
export { extractMentions } from './extract-entities';
export { extractRelations } from './relations';
export { isGenericType, personTypes, type OntologySchema, type TextPattern } from './ontology';
export { looksLikeAcronym, normalizeKey, singularKey } from './normalize';
