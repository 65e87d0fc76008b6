/**
 * Publishing a memory's searchable index: immutable segments under `index/v<n>/` and the version on the
 * memory item, changed by one conditional write. A build starts from the previous version's chunks, keeps
 * those of files still in the memory, adds the new ones, and writes the next version. When another build
 * published first, the build starts again from that one.
 */
import { ConflictError } from '../errors';
import type { Memory } from '../model';
import { objectKeys } from '../object-keys';
import { sessionSourceId } from '../model';
import type { Clock, GraphItemStore, IdGenerator, LinkStore, MemoryStore, ObjectStore, QueuePort, SessionLinkStore } from '../ports';
import { dropsText, queueRetirement, type RetireQueueDeps } from './retire-builds';
import { deserializeRetrievalIndex, type GraphSnapshot, type RetrievalIndex, serializeRetrievalIndex } from '../../engine';
import { decodeChunks, encodeChunks, type StoredChunk } from '../stored-index/chunks';
import { INDEX_FILES } from '../stored-index/index-files';
import { graphItemsOf, type GraphItems } from '../graph-items';
import { writeGraphItems } from './graph-items-sync';
import { parseGraphState } from '../stored-index/graph-state';
import { buildIndexVersion, type IndexingSettings } from './index-build';
import { emitMetric } from '../metrics';

const PUBLISH_TRIES = 5;

export interface IndexDeps {
  memories: MemoryStore;
  links: LinkStore;
  sessionLinks: SessionLinkStore;
  objects: ObjectStore;
  ids: IdGenerator;
  clock: Clock;
  graphItems: GraphItemStore;
  indexing: IndexingSettings;
  queue: QueuePort;
  config: RetireQueueDeps['config'];
}

export interface Publication {
  /** Chunks of files entering the index with this build, by file id. */
  added: ReadonlyMap<string, readonly StoredChunk[]>;
  /** Other memory fields to set with the new version (step, job, failures). */
  changes: (built: BuiltCounts) => Partial<Memory>;
  /** An ingestion: graph memories use the configured extractor (which may spend model tokens). */
  managed?: boolean;
  /** A restore: the archive's graph is the graph (nothing is extracted) and its vectors are kept. */
  restored?: RestoredIndex;
}

interface RestoredIndex {
  graph: GraphSnapshot | undefined;
  /** Vectors by chunk id, when the archive's embedder is this deployment's. */
  vectors: ReadonlyMap<string, Float32Array> | undefined;
}

export interface Published {
  /** The memory after, or undefined when it was deleted meanwhile. */
  memory: Memory | undefined;
  /** Model tokens graph extraction spent (every try counted). */
  extractionTokens: number;
}

/** Builds and publishes the next index version. */
export async function buildAndPublishIndex(
  deps: IndexDeps,
  accountId: string,
  memoryId: string,
  publication: Publication,
): Promise<Published> {
  let extractionTokens = 0;
  for (let attempt = 1; ; attempt++) {
    const memory = await deps.memories.get(accountId, memoryId);
    if (!memory) return { memory: undefined, extractionTokens };
    const build = await buildVersion(deps, memory, publication);
    extractionTokens += build.written.extractionTokens;
    try {
      return { memory: await publishBuild(deps, memory, build, publication), extractionTokens };
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      await deps.objects.deletePrefix(build.prefix); // another build published first: this one is never read
      if (attempt >= PUBLISH_TRIES) throw error;
    }
  }
}

interface Build {
  readonly version: number;
  readonly prefix: string;
  readonly chunks: readonly StoredChunk[];
  /** The build leaves out text the previous build holds (removed or replaced sources): that build must go soon. */
  readonly dropsText: boolean;
  readonly written: Awaited<ReturnType<typeof writeSegments>>;
}

/** Writes the next version's segments under a fresh prefix, from the memory as it is now. */
async function buildVersion(deps: IndexDeps, memory: Memory, publication: Publication): Promise<Build> {
  const sources = await attachedSources(deps, memory);
  const { chunks, dropsText } = await nextChunks(deps, memory, sources, publication.added);
  const version = memory.indexVersion + 1;
  const prefix = objectKeys.indexPrefix(memory.accountId, memory.id, version, deps.ids.uuid());
  const written = await writeSegments(deps, memory, prefix, chunks, {
    added: publication.added,
    kept: sources,
    managed: publication.managed ?? false,
    restored: publication.restored,
  });
  return { version, prefix, chunks, dropsText, written };
}

/**
 * Makes the build the memory's index unless another version was published since (ConflictError). The
 * memory after, or undefined when it was deleted meanwhile (then the build's graph items go too).
 */
async function publishBuild(deps: IndexDeps, memory: Memory, build: Build, publication: Publication): Promise<Memory | undefined> {
  const { accountId, id: memoryId } = memory;
  const graph = build.written.counts;
  const counts = { chunkCount: build.chunks.length, fileCount: new Set(build.chunks.map((chunk) => chunk.fileId)).size, ...graph };
  const published = await deps.memories.commitIndexVersion(accountId, memoryId, {
    expectedVersion: memory.indexVersion,
    changes: { indexVersion: build.version, indexPrefix: build.prefix, ...graph, ...publication.changes(counts) },
    excludedBuilt: memory.excludedFileIds,
  });
  if (!published && build.written.graphItems) await deps.graphItems.deleteAll(accountId, memoryId); // deleted meanwhile
  if (published) await dropOldBuilds(deps, published, memory.indexPrefix);
  if (published && build.dropsText) await queueRetirement(deps, { accountId, memoryId, version: build.version });
  return published;
}

/** The previous version's chunks of files still in the memory, then the added files' chunks. */
async function nextChunks(
  deps: IndexDeps,
  memory: Memory,
  linked: ReadonlySet<string>,
  added: ReadonlyMap<string, readonly StoredChunk[]>,
): Promise<{ chunks: StoredChunk[]; dropsText: boolean }> {
  const previous = memory.indexPrefix ? decodeChunks(await deps.objects.get(memory.indexPrefix + INDEX_FILES.chunks)) : [];
  const excluded = new Set(memory.excludedFileIds); // cleared by this publish: build without them
  const kept = previous.filter(
    (chunk) => linked.has(chunk.fileId) && !added.has(chunk.fileId) && !excluded.has(chunk.fileId) && !excluded.has(chunk.id),
  );
  // a message deleted after its session was read for this build is excluded by its chunk id: left out here too
  const fresh = [...added.entries()]
    .filter(([fileId]) => linked.has(fileId))
    .flatMap(([, chunks]) => chunks.filter((chunk) => !excluded.has(chunk.id)));
  const chunks = [...kept, ...fresh];
  return { chunks, dropsText: dropsText(previous, chunks) };
}

/** The sources a memory's index may hold: its files and its attached sessions. */
async function attachedSources(deps: IndexDeps, memory: Memory): Promise<Set<string>> {
  const [files, sessions] = await Promise.all([
    deps.links.listByMemory(memory.accountId, memory.id),
    deps.sessionLinks.listByMemory(memory.accountId, memory.id),
  ]);
  return new Set([...files.map((link) => link.fileId), ...sessions.map((link) => sessionSourceId(link.sessionId))]);
}

/** The chunks, the retrieval index and (graph memories) the graph; answers the graph's counts. */
async function writeSegments(
  deps: IndexDeps,
  memory: Memory,
  prefix: string,
  chunks: StoredChunk[],
  { restored, ...changes }: SegmentChanges,
): Promise<{ counts: GraphCountsOf; extractionTokens: number; graphItems?: GraphItems }> {
  const previous = restored
    ? restored.graph
    : memory.memoryType === 'graph' && memory.indexPrefix
      ? parseGraphState(await deps.objects.get(memory.indexPrefix + INDEX_FILES.state))
      : undefined;
  const previousRetrieval = await previousVectors(deps, memory);
  const started = Date.now();
  const graphInputs = { previous, ...changes, ...(restored ? { added: new Map() } : {}) };
  const built = await buildIndexVersion(memory, chunks, graphInputs, deps.indexing, previousRetrieval, restored?.vectors);
  const encodedChunks = encodeChunks(chunks);
  const retrieval = serializeRetrievalIndex(built.retrieval);
  await deps.objects.put(prefix + INDEX_FILES.chunks, encodedChunks, 'application/json');
  await deps.objects.put(prefix + INDEX_FILES.retrieval, retrieval);
  const graph = built.graph;
  const bytes = byteSize(encodedChunks) + byteSize(retrieval) + (graph ? byteSize(graph.segment) + byteSize(graph.state) : 0);
  const properties = { accountId: memory.accountId, memoryId: memory.id, chunks: chunks.length };
  emitMetric('IndexBuildSeconds', (Date.now() - started) / 1000, { dimension: memory.memoryType, properties });
  emitMetric('IndexBytes', bytes, { dimension: memory.memoryType, properties });
  if (!graph) return { counts: { entityCount: 0, relationCount: 0, factCount: 0 }, extractionTokens: 0 };
  await deps.objects.put(prefix + INDEX_FILES.segment, graph.segment);
  await deps.objects.put(prefix + INDEX_FILES.state, graph.state, 'application/json');
  const known = previous && memory.indexPrefix ? { prefix: memory.indexPrefix, items: graphItemsOf(previous) } : undefined;
  await writeGraphItems(deps, memory.accountId, memory.id, { items: graph.items, version: memory.indexVersion + 1, prefix }, known);
  const counts = { entityCount: graph.counts.entities, relationCount: graph.counts.relations, factCount: graph.counts.facts };
  return { counts, extractionTokens: graph.tokensUsed, graphItems: graph.items };
}

/**
 * The previous build, for its vectors (only the added files' chunks are embedded again); none without an
 * embedder, or when it cannot be read (then everything is embedded, as a first build is).
 */
async function previousVectors(deps: IndexDeps, memory: Memory): Promise<RetrievalIndex | undefined> {
  if (!memory.indexPrefix || !deps.indexing.embedder()) return undefined;
  const bytes = await deps.objects.get(memory.indexPrefix + INDEX_FILES.retrieval);
  try {
    return bytes ? deserializeRetrievalIndex(bytes) : undefined;
  } catch {
    return undefined; // an older format: embedding again is the safe answer
  }
}

interface SegmentChanges {
  added: ReadonlyMap<string, readonly StoredChunk[]>;
  kept: ReadonlySet<string>;
  managed: boolean;
  restored: RestoredIndex | undefined;
}

const byteSize = (data: Uint8Array | string): number => (typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength);

type GraphCountsOf = Pick<Memory, 'entityCount' | 'relationCount' | 'factCount'>;
type BuiltCounts = { chunkCount: number; fileCount: number } & GraphCountsOf;

/**
 * Keeps the published build and the one before it (a warm reader may still be loading it); deletes older
 * builds and the builds of these versions that lost or crashed. Builds of later versions (still running)
 * are left alone.
 */
async function dropOldBuilds(deps: IndexDeps, published: Memory, previousPrefix: string | null): Promise<void> {
  const root = objectKeys.indexRoot(published.accountId, published.id);
  const keep = new Set([published.indexPrefix, previousPrefix]);
  const builds = new Set((await deps.objects.list(root)).map((key) => key.slice(0, key.indexOf('/', root.length) + 1)));
  for (const build of builds) {
    const version = Number(/^v(\d+)-/.exec(build.slice(root.length))?.[1] ?? NaN);
    if (Number.isInteger(version) && version <= published.indexVersion && !keep.has(build)) await deps.objects.deletePrefix(build);
  }
}
