/**
 * Publishing a memory's searchable index (docs/segments.md): a version is a manifest of immutable
 * segments in its own folder (`index/v<n>-<uuid>/manifest.json`), named on the memory item by one
 * conditional write. A build writes one new segment holding only the chunks it adds and marks the chunks
 * of replaced or removed sources deleted in the new manifest; no build rewrites a segment. When another
 * build (or a merge) published first, the build starts again from that version.
 */
import { ConflictError } from '../errors';
import type { Memory } from '../model';
import { objectKeys } from '../object-keys';
import type { Clock, GraphItemStore, IdGenerator, LinkStore, MemoryStore, ObjectStore, QueuePort, SessionLinkStore } from '../ports';
import type { GraphSnapshot } from '../../engine';
import type { StoredChunk } from '../stored-index/chunks';
import { INDEX_FILES } from '../stored-index/index-files';
import { encodeManifest, type GraphChain, type IndexManifest, nameOf, readManifest } from '../stored-index/manifest';
import { writeSegment } from '../stored-index/segments';
import type { MemoryGraph } from '../../engine/graph';
import { type GraphStart, graphStart, writeGraph } from './graph-version';
import { buildIndexVersion, type GraphInputs, type IndexingSettings } from './index-build';
import { buildSources, forgottenExclusions, staysAfter } from './linked-sources';
import { afterPublish, forgetDeleted, sweepDeleted, type VersionRef } from './index-publish';
import type { FileTimes } from './memory-graph';
import { queueRetirement, type RetireQueueDeps } from './retire-builds';
import { planVersion, type VersionPlan } from './segment-plan';
import { emitMetric } from '../metrics';
import type { RetrievalIndex } from '../../engine';
import type { VectorTierSetup } from '../vector-tier/ports';
import { forgetPlacement, memoryTierOwner, placeVectors } from './vector-placement';

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
  /** Where a merge (and a retirement) is asked for when a publish leaves one due. */
  queue: QueuePort;
  config: RetireQueueDeps['config'];
  /** The vector tier, when the stage turns it on (docs/scale.md). */
  vectors?: VectorTierSetup;
}

export interface Publication {
  /** Chunks of files entering the index with this build, by file id. */
  added: ReadonlyMap<string, readonly StoredChunk[]>;
  /** Other memory fields to set with the new version (step, job, failures). */
  changes: (built: BuiltCounts) => Partial<Memory>;
  /** An ingestion: graph memories use the configured extractor (which may spend model tokens). */
  managed?: boolean;
  /** The added files' times (their facts' validity starts there; see ingest/memory-graph.ts). */
  fileTimes?: ReadonlyMap<string, FileTimes>;
  /** A restore: the archive's graph is the graph (nothing is extracted) and its vectors are kept. */
  restored?: RestoredIndex;
  /**
   * Only the added sources (and the memory's exclusions) changed since the current version: an ingestion or
   * a conversation sync. The build looks up their links only, not every link (linked-sources.ts).
   */
  onlyAdded?: boolean;
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
    // deleted while an earlier try ran: what that try wrote after the delete's sweep goes too
    if (!memory) return (attempt > 1 && (await sweepDeleted(deps, { accountId, id: memoryId })), { memory: undefined, extractionTokens });
    let build: Build | undefined;
    try {
      build = await buildVersion(deps, memory, publication).catch(async (error: unknown) => {
        throw error instanceof ConflictError || !(await publishedMeanwhile(deps, memory))
          ? error
          : new ConflictError(`memory '${memory.id}' published meanwhile`, { cause: error });
      });
      extractionTokens += build.written.extractionTokens;
      return { memory: await publishBuild(deps, memory, build, publication), extractionTokens };
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      await forgetLostBuild(deps, memory, build);
      if (attempt >= PUBLISH_TRIES) throw error;
    }
  }
}

/** Another build published first: this one is never read, so its folders and its placement in the tier go. */
async function forgetLostBuild(deps: IndexDeps, memory: Memory, build: Build | undefined): Promise<void> {
  if (!build) return;
  await Promise.all(build.folders.map((folder) => deps.objects.deletePrefix(folder)));
  const lost = { started: build.previous?.manifest, placed: build.manifest.vectorTier, segment: build.tierSegment };
  await forgetPlacement(deps, memoryTierOwner(memory), lost);
}

/**
 * Whether another version was published since `memory` was read: a build that failed before its publish
 * meanwhile (say its tier writes found the generation it wrote into dropped by a move back) lost the race,
 * and starts again from the new version.
 */
async function publishedMeanwhile(deps: IndexDeps, memory: Memory): Promise<boolean> {
  return (await deps.memories.get(memory.accountId, memory.id))?.indexVersion !== memory.indexVersion;
}

interface Build {
  readonly version: number;
  readonly prefix: string;
  readonly manifest: IndexManifest;
  /** The version before, which the build started from. */
  readonly previous: VersionRef | undefined;
  /** Folders the build wrote: its version's and its segment's. */
  readonly folders: readonly string[];
  readonly plan: VersionPlan;
  readonly written: Awaited<ReturnType<typeof writeSegments>>;
  /** The new segment, when its vectors were put in the tier. */
  readonly tierSegment?: { id: string; chunks: number };
}

/** Writes the next version's new segment and manifest under fresh folders, from the memory as it is now. */
async function buildVersion(deps: IndexDeps, memory: Memory, publication: Publication): Promise<Build> {
  const root = objectKeys.indexRoot(memory.accountId, memory.id);
  const current = memory.indexPrefix ? await readManifest(deps.objects, root, memory.indexPrefix) : undefined;
  const onlyAdded = publication.onlyAdded === true && current !== undefined && !publication.restored;
  const { linked, touched } = await buildSources(deps, memory, publication.added, onlyAdded);
  const scope = {
    linked,
    ...(touched ? { touched } : {}),
    added: publication.added,
    excluded: new Set(memory.excludedFileIds),
    // sources or messages were deleted: text this build replaces must be purged too (docs/backups.md)
    erasing: memory.excludedFileIds.length > 0,
    embedder: deps.indexing.embedder()?.name ?? null,
  };
  const plan = await planVersion(deps.objects, root, current, scope).catch(async (error: unknown) => {
    // the version read was replaced and collected meanwhile: start again from the new one
    const now = await deps.memories.get(memory.accountId, memory.id);
    throw now?.indexVersion !== memory.indexVersion ? new ConflictError(`memory '${memory.id}' published meanwhile`) : error;
  });
  const version = memory.indexVersion + 1;
  const prefix = objectKeys.indexPrefix(memory.accountId, memory.id, version, deps.ids.uuid());
  const segmentPrefix = objectKeys.indexSegmentPrefix(memory.accountId, memory.id, version, deps.ids.uuid());
  const written = await writeSegments(deps, memory, { prefix, segmentPrefix, current }, plan, {
    added: publication.added,
    kept: staysAfter(scope),
    managed: publication.managed ?? false,
    ...(publication.fileTimes ? { fileTimes: publication.fileTimes } : {}),
    restored: publication.restored,
  });
  const segments = [...plan.kept];
  const segmentId = nameOf(root, segmentPrefix);
  const sources = new Set(plan.segmentChunks.map((chunk) => chunk.fileId)).size;
  if (written.segment) segments.push({ id: segmentId, ...written.segment, deleted: [], sources });
  const added = written.retrieval ? { id: segmentId, retrieval: written.retrieval, chunks: plan.segmentChunks } : undefined;
  const vectorTier = await placeVectors(deps, memoryTierOwner(memory), { current, kept: plan.kept, added, chunkCount: plan.chunkCount });
  const graph = written.graph ? { graph: written.graph.chain } : {};
  const manifest: IndexManifest = { format: 1, segments, ...(vectorTier ? { vectorTier } : {}), ...graph };
  await deps.objects.put(prefix + INDEX_FILES.manifest, encodeManifest(manifest), 'application/json');
  const previous = memory.indexPrefix && current ? { prefix: memory.indexPrefix, manifest: current } : undefined;
  const tierSegment = vectorTier && written.segment ? { id: segmentId, chunks: written.segment.chunks } : undefined;
  return { version, prefix, manifest, previous, folders: [prefix, segmentPrefix], plan, written, ...(tierSegment ? { tierSegment } : {}) };
}

/**
 * Makes the build the memory's index unless another version was published since (ConflictError). The
 * memory after, or undefined when it was deleted meanwhile (then the build's graph items go too).
 */
async function publishBuild(deps: IndexDeps, memory: Memory, build: Build, publication: Publication): Promise<Memory | undefined> {
  const { accountId, id: memoryId } = memory;
  const graph = build.written.counts;
  const counts = { chunkCount: build.plan.chunkCount, fileCount: build.plan.fileCount, ...graph };
  const published = await deps.memories.commitIndexVersion(accountId, memoryId, {
    expectedVersion: memory.indexVersion,
    changes: { indexVersion: build.version, indexPrefix: build.prefix, ...graph, ...publication.changes(counts) },
    excludedBuilt: forgottenExclusions(memory.excludedFileIds, build.plan.addedSources),
  });
  if (!published && build.written.graph) await deps.graphItems.deleteAll(accountId, memoryId); // deleted meanwhile
  if (published && build.written.graph)
    deps.indexing.graphCache?.keep(published, build.written.graph.chain.state, build.written.graph.kept);
  if (!published) await forgetDeleted(deps, memoryTierOwner(memory), build.folders, build.manifest.vectorTier);
  if (published) await afterPublish(deps, published, { prefix: build.prefix, manifest: build.manifest }, build.previous);
  // text left out with whole segments: retire the versions naming them (a purge merge retires after it publishes)
  if (published && build.plan.dropsText && !build.manifest.segments.some((entry) => entry.purge))
    await queueRetirement(deps, { accountId, memoryId, version: build.version, prefix: build.prefix });
  return published;
}

interface Written {
  counts: GraphCountsOf;
  extractionTokens: number;
  /** A graph memory's graph: the chain the manifest names, and the graph the worker keeps once published. */
  graph?: { chain: GraphChain; kept: MemoryGraph };
  /** The new segment's size and embedder; none when the build adds no chunk. */
  segment?: { chunks: number; embedder: string | null };
  /** The new segment's retrieval index (its vectors go to the tier of a tiered memory). */
  retrieval?: RetrievalIndex;
}

/**
 * The new segment (when the build adds chunks) and, for graph memories, the version's graph; answers the
 * graph's counts.
 */
async function writeSegments(
  deps: IndexDeps,
  memory: Memory,
  folders: { prefix: string; segmentPrefix: string; current: IndexManifest | undefined },
  plan: VersionPlan,
  { restored, ...changes }: SegmentChanges,
): Promise<Written> {
  const start: GraphStart = restored ? { previous: restored.graph } : await graphStart(deps, memory, folders.current);
  const started = Date.now();
  const chunks = plan.segmentChunks;
  const graphInputs = { ...start, ...changes, ...(restored ? { added: new Map() } : {}) };
  const built = await buildIndexVersion(memory, chunks, graphInputs, deps.indexing, plan.previous, restored?.vectors);
  const segmentBytes = chunks.length > 0 ? await writeSegment(deps.objects, folders.segmentPrefix, chunks, built.retrieval) : 0;
  const segment = chunks.length > 0 ? { chunks: chunks.length, embedder: built.retrieval.embedder } : undefined;
  const made = segment ? { segment, retrieval: built.retrieval } : {};
  const graph = built.graph;
  // text leaves the memory, or the graph comes from an archive: the version's graph is written whole
  const whole = restored !== undefined || plan.dropsText || memory.excludedFileIds.length > 0;
  const written = graph ? await writeGraph(deps, memory, folders.prefix, { built: graph, start, whole }) : undefined;
  const properties = { accountId: memory.accountId, memoryId: memory.id, chunks: chunks.length };
  emitMetric('IndexBuildSeconds', (Date.now() - started) / 1000, { dimension: memory.memoryType, properties });
  emitMetric('IndexBytes', segmentBytes + (written?.bytes ?? 0), { dimension: memory.memoryType, properties });
  if (!graph || !written) return { counts: { entityCount: 0, relationCount: 0, factCount: 0 }, extractionTokens: 0, ...made };
  const counts = { entityCount: graph.counts.entities, relationCount: graph.counts.relations, factCount: graph.counts.facts };
  return { counts, extractionTokens: graph.tokensUsed, graph: { chain: written.chain, kept: graph.graph }, ...made };
}

interface SegmentChanges extends Omit<GraphInputs, 'previous'> {
  restored: RestoredIndex | undefined;
}

type GraphCountsOf = Pick<Memory, 'entityCount' | 'relationCount' | 'factCount'>;
type BuiltCounts = { chunkCount: number; fileCount: number } & GraphCountsOf;
