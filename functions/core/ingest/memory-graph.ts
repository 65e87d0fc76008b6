/**
 * The knowledge graph of a graph memory, built beside each index version: the previous version's graph
 * state (a snapshot) is restored, sources that left the memory are removed (their entities, relations and
 * facts go when nothing else supports them), changed sources are added again, and the next version gets
 * the new snapshot (or its delta) and the compact segment retrieval walks (or its delta).
 *
 * Validity: each chunk is stated at its message's time, else at its file's (the document date its top
 * states, else the file's creation; a new version of a file, its update). A file added again replaces
 * its earlier version: facts only the earlier version stated stay, closed at the new version's time.
 * A customer user's messages give their profile statements. Then `refreshValidity` closes what later
 * statements of single-valued relations superseded, over the groups the build's files touched (a graph
 * restored from a snapshot written before validity, or a new one, gets the whole pass).
 *
 * A warm worker hands in the graph it kept from the version before (`cached`, graph-cache.ts) instead of
 * the snapshot to restore; the build tracks what it touches and answers it as a delta (graph-delta.ts) and
 * the segment's delta (graph-segment-delta.ts), which is what the version stores unless it writes the graph
 * whole (docs/segments.md): no build serialises the whole segment unless it writes the graph whole.
 */
import type { GraphDelta, GraphSegmentDelta, GraphSnapshot, WordVectors } from '../../engine';
import {
  type ChunkOrigin,
  createMemoryGraph,
  extractFile,
  graphDelta,
  graphSegmentDelta,
  graphInvariantViolations,
  type GraphChanges as TouchedIds,
  markFile,
  type MemoryGraph,
  mergeFile,
  refreshValidity,
  removeFile,
  addFileToScope,
  emptyValidityScope,
  type ValidityScope,
  restoreMemoryGraph,
  statedDocumentDate,
  trackGraphChanges,
} from '../../engine/graph';
import type { Memory } from '../model';
import type { StoredChunk } from '../stored-index/chunks';
import type { GraphExtractor } from './ports';

interface GraphCounts {
  entities: number;
  relations: number;
  facts: number;
}

export interface BuiltGraph {
  /** The graph after the build (the worker keeps it for the memory's next build: graph-cache.ts). */
  graph: MemoryGraph;
  /** What the build changed, when it started from a graph with validity (else: none, write it whole). */
  delta: GraphDelta | undefined;
  /** What the build changed in the segment retrieval walks (with `delta`; a whole write builds the segment from `graph`). */
  segmentDelta: GraphSegmentDelta | undefined;
  counts: GraphCounts;
  /** Tokens a managed extractor (a model) spent; 0 offline. */
  tokensUsed: number;
}

/**
 * The one offline extractor (the engine's `extractFile`, no service, no cost): for builds that must not
 * spend model tokens (conversation syncs, reindexing), the `offline` setting, and the chunks a managed
 * extractor hands back to it when its service fails.
 */
export const OFFLINE_GRAPH_EXTRACTOR: GraphExtractor = {
  name: 'offline',
  extract: async (input, context) => ({
    extraction: extractFile(input, context),
    tokensUsed: 0,
    fellBack: false,
    offlineChunks: input.chunks.length,
    calls: 0,
  }),
};

export interface GraphChanges {
  previous: GraphSnapshot | undefined;
  /** The previous version's graph as a warm worker kept it: used (and changed) instead of restoring `previous`. */
  cached?: MemoryGraph;
  /** Sources whose chunks are (re)added, with those chunks. */
  added: ReadonlyMap<string, readonly StoredChunk[]>;
  /** Every source the memory holds after this build. */
  kept: Pick<ReadonlySet<string>, 'has'>;
  /** The added files' times (sessions' messages carry their own). */
  fileTimes?: ReadonlyMap<string, FileTimes>;
}

/** When a file was created and last changed. */
export interface FileTimes {
  createdAt: string;
  updatedAt: string;
}

export async function buildMemoryGraph(
  memory: GraphMemory,
  changes: GraphChanges,
  options: { wordVectors: WordVectors | undefined; extractor: GraphExtractor },
): Promise<BuiltGraph> {
  const graph = changes.cached ?? startingGraph(memory, changes.previous, options.wordVectors);
  const touched = trackGraphChanges(graph.graph);
  const withValidity = changes.cached !== undefined || (changes.previous !== undefined && changes.previous.version !== 1);
  const scope = removeLeavingFiles(graph, changes, touched, withValidity);
  const tokensUsed = await mergeAddedFiles(graph, memory, changes, { extractor: options.extractor, touched, scope });
  refreshValidity(graph.graph, scope, touched.validity);
  const problems = graphInvariantViolations(graph.graph);
  if (problems.length) throw new Error(`graph of memory ${memory.id} is inconsistent: ${problems.slice(0, 3).join('; ')}`);
  // a delta applies to a version 3 snapshot only (an older one is written whole once)
  const delta = changes.cached !== undefined || changes.previous?.version === 3 ? graphDelta(graph.graph, touched) : undefined;
  return {
    graph,
    delta,
    segmentDelta: delta && graphSegmentDelta(graph.graph, delta),
    counts: { entities: graph.graph.entities.size, relations: graph.graph.relations.size, facts: graph.graph.facts.size },
    tokensUsed,
  };
}

/** Extracts and merges the added files (marking what they touch, widening the validity scope); answers the model tokens spent. */
async function mergeAddedFiles(
  graph: MemoryGraph,
  memory: GraphMemory,
  changes: GraphChanges,
  { extractor, touched, scope }: { extractor: GraphExtractor; touched: TouchedIds; scope: ValidityScope | undefined },
): Promise<number> {
  const context = {
    schema: graph.graph.schema,
    factExtraction: memory.factExtraction,
    ...(graph.vectorTyper ? { vectorTyper: graph.vectorTyper } : {}),
  };
  let tokensUsed = 0;
  for (const [fileId, chunks] of changes.added) {
    if (chunks.length === 0) continue;
    const input = { fileId, chunks: chunks.map((chunk) => ({ id: chunk.id, text: chunk.text })) };
    const result = await extractor.extract(input, context);
    const replacing = graph.graph.files.get(fileId);
    if (replacing) markFile(touched, replacing);
    mergeFile(graph, result.extraction, originOf(chunks, changes.fileTimes?.get(fileId), replacing !== undefined));
    const merged = graph.graph.files.get(fileId);
    if (merged) markFile(touched, merged);
    if (scope && merged) addFileToScope(scope, graph.graph, merged);
    tokensUsed += result.tokensUsed;
  }
  return tokensUsed;
}

/**
 * Removes the sources that left the memory (an added source replaces its earlier version in mergeFile,
 * which keeps what that one stated, closed), marking what they named as touched. Answers the validity scope
 * with what left or is replaced; undefined (the whole validity pass) for a new graph or one restored from
 * before validity.
 */
function removeLeavingFiles(
  graph: MemoryGraph,
  changes: GraphChanges,
  touched: TouchedIds,
  withValidity: boolean,
): ValidityScope | undefined {
  const scope = withValidity ? emptyValidityScope() : undefined;
  for (const [fileId, file] of [...graph.graph.files]) {
    const removed = !changes.kept.has(fileId) || changes.added.get(fileId)?.length === 0;
    if (scope && (removed || changes.added.has(fileId))) addFileToScope(scope, graph.graph, file);
    if (removed) markFile(touched, file);
    if (removed) removeFile(graph, fileId);
  }
  return scope;
}

type GraphMemory = Pick<Memory, 'id' | 'ontology' | 'factExtraction'>;

/** When and by whom a source's chunks were stated; a file replacing its earlier version closes what it no longer says. */
function originOf(chunks: readonly StoredChunk[], times: FileTimes | undefined, replacing: boolean) {
  const fileTime = times && (statedDocumentDate(chunks[0]?.text ?? '') ?? isoTime(replacing ? times.updatedAt : times.createdAt));
  const origins = new Map<string, ChunkOrigin>();
  for (const chunk of chunks) {
    origins.set(
      chunk.id,
      chunk.message ? messageOrigin(chunk) : { ...(fileTime ? { time: fileTime } : {}), sourceId: chunk.pageId ?? chunk.fileId },
    );
  }
  const replacedAt = replacing && fileTime ? { replacedAt: fileTime } : {};
  return { chunks: origins, ...replacedAt };
}

/** A message: its time and id, and for a customer user's own message who said it (their profile). */
function messageOrigin(chunk: StoredChunk): ChunkOrigin {
  const message = chunk.message;
  if (!message) return {};
  const speaker = message.role === 'user' && message.customerUserId ? { speaker: message.customerUserId, text: chunk.text } : {};
  return { time: isoTime(message.createdAt), sourceId: message.id, ...speaker };
}

/** An ISO 8601 time as UTC with milliseconds, so times compare as strings. */
function isoTime(value: string): string {
  const time = Date.parse(value);
  return Number.isNaN(time) ? value : new Date(time).toISOString();
}

function startingGraph(memory: GraphMemory, previous: GraphSnapshot | undefined, vectors: WordVectors | undefined): MemoryGraph {
  const settings = { factExtraction: memory.factExtraction, ...(vectors ? { vectors } : {}) };
  if (previous) return restoreMemoryGraph(previous, settings);
  return createMemoryGraph({ ...settings, ontology: memory.ontology ?? 'essays' });
}
