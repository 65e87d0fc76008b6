/**
 * The engine's second door: building a memory's knowledge graph from text. Apart from index.ts because
 * it loads the English language model (wink-eng-lite-web-model, ~3.5 MB) when imported, which only the
 * worker needs; an API function importing index.ts stays small. Types live in index.ts.
 */
export { createMemoryGraph, extractFile, mergeFile, removeFile } from './graph/graph-build';
export { restoreMemoryGraph, snapshotGraph } from './graph/graph-snapshot';
export { parseText } from './graph/nlp';
