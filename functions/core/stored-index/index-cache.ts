/**
 * A memory's published index as retrieval reads it: the retrieval index of its live chunks, their chunk
 * records (sources, message times) and, for graph memories, the graph segment. A version is a manifest of
 * immutable segments (docs/segments.md): each segment is cached by its folder, so a warm container that
 * sees a new version reads only the segments it has not loaded yet, and a cold one reads them all in
 * parallel. The segments are then composed, in place, into one index of their live chunks (compose-index.ts
 * in the engine): no posting is merged, and BM25 counts every live chunk of every segment, so ranking is
 * that of a build from nothing of the live chunks. Composed versions are kept under the memory's id and version.
 */
import { buildRetrievalIndex, composeRetrievalIndexes, type GraphSegment, type RetrievalIndex } from '../../engine';
import type { ChunkRecord, StoredChunk } from './chunks';
import { INDEX_FILES } from './index-files';
import { folderOf, type IndexManifest, readManifest } from './manifest';
import type { Memory } from '../model';
import { objectKeys } from '../object-keys';
import type { ObjectStore } from '../ports';
import { type QueriedSegment, readQueriedSegment } from './segments';
import { LiveChunks, liveRecords, type RecordPart } from './live-chunks';
import { GraphSegments } from './graph-segments';
import { PromiseLru } from './promise-lru';
import { LiveKeys } from '../vector-tier/vector-keys';

export interface LoadedIndex {
  version: number;
  retrieval: RetrievalIndex;
  /** Chunk records by id (file, page, message time and role). */
  chunks: ReadonlyMap<string, StoredChunk>;
  /** The same records by ordinal of `retrieval` (when the reader knows them so: a loaded version does), without their texts. */
  records?: readonly ChunkRecord[];
  graph: GraphSegment | null;
  /**
   * Present when the memory's vectors live in the vector tier (docs/scale.md): `retrieval` then holds no
   * vectors, and the tier's answers are kept when `live` maps their key to an ordinal of `retrieval`.
   */
  vectorTier?: { dimension: number; generation?: string; live: LiveKeys };
}

/** A graph memory's published graph segment with its chunk records, without the retrieval index. */
export interface LoadedGraph {
  version: number;
  graph: GraphSegment;
  chunks: ReadonlyMap<string, StoredChunk>;
}

/** Segments kept per cached version: a memory holds a few per merge tier. */
const SEGMENTS_PER_VERSION = 16;

export class IndexCache {
  private readonly loaded: PromiseLru<LoadedIndex | LoadedGraph | undefined>;
  private readonly segments: PromiseLru<QueriedSegment>;
  /** Each memory's (and message index's) last composed version, which the next one copies its shared first segments from. */
  private readonly latest: PromiseLru<Composed>;
  /** Graph segments composed from their chains' bases and deltas (graph-segments.ts). */
  private readonly graphs: GraphSegments;

  constructor(
    private readonly objects: ObjectStore,
    capacity: number,
  ) {
    this.loaded = new PromiseLru(capacity);
    this.segments = new PromiseLru(capacity * SEGMENTS_PER_VERSION);
    this.latest = new PromiseLru(capacity);
    this.graphs = new GraphSegments(objects, 2 * capacity);
  }

  /** The memory's current index (undefined before its first ingestion). */
  load(memory: Memory): Promise<LoadedIndex> | undefined {
    const prefix = memory.indexPrefix;
    if (!prefix) return undefined;
    const key = `${memory.accountId}/${memory.id}@${memory.indexVersion}`;
    return this.loaded.get(key, () => this.readVersion(memory, prefix, memory.memoryType === 'graph')) as Promise<LoadedIndex>;
  }

  /**
   * An account's message index: the version published at `prefix` under `root` (a manifest of segments,
   * or a folder written before segments), kept under `key` (unique per version: an owner and a version).
   * Its segments are cached by folder as a memory's are.
   */
  loadBuild(key: string, root: string, prefix: string, version: number): Promise<LoadedIndex> {
    return this.loaded.get(key, async () => {
      const manifest = await readManifest(this.objects, root, prefix);
      if (!manifest) throw new Error(`index ${prefix} has no ${INDEX_FILES.manifest}`);
      const tiered = manifest.vectorTier;
      const parts = await this.parts(root, manifest, tiered !== undefined);
      const { retrieval, records } = await this.compose(`messages ${root}`, parts);
      return {
        version,
        retrieval,
        chunks: new LiveChunks(recordParts(parts)),
        records,
        graph: null,
        ...(tiered ? { vectorTier: { ...tiered, live: new LiveKeys(manifest) } } : {}),
      };
    }) as Promise<LoadedIndex>;
  }

  /** A graph memory's current graph segment and chunks (undefined before its first ingestion). */
  loadGraph(memory: Memory): Promise<LoadedGraph | undefined> | undefined {
    const prefix = memory.indexPrefix;
    if (!prefix || memory.memoryType !== 'graph') return undefined;
    const key = `${memory.accountId}/${memory.id}@${memory.indexVersion}#graph`;
    return this.loaded.get(key, () => this.readGraph(memory, prefix)) as Promise<LoadedGraph | undefined>;
  }

  private async readVersion(memory: Memory, prefix: string, withGraph: boolean): Promise<LoadedIndex> {
    const manifest = await this.manifestOf(memory, prefix);
    const tiered = manifest.vectorTier;
    const root = objectKeys.indexRoot(memory.accountId, memory.id);
    const [parts, graph] = await Promise.all([
      this.parts(root, manifest, tiered !== undefined),
      withGraph ? this.graphs.load(root, prefix, manifest) : Promise.resolve(null),
    ]);
    const { retrieval, records } = await this.compose(`${memory.accountId}/${memory.id}`, parts);
    return {
      version: memory.indexVersion,
      retrieval,
      chunks: new LiveChunks(recordParts(parts)),
      records,
      graph,
      ...(tiered ? { vectorTier: { ...tiered, live: new LiveKeys(manifest) } } : {}),
    };
  }

  private async readGraph(memory: Memory, prefix: string): Promise<LoadedGraph | undefined> {
    const manifest = await this.manifestOf(memory, prefix);
    const root = objectKeys.indexRoot(memory.accountId, memory.id);
    const [graph, parts] = await Promise.all([
      this.graphs.load(root, prefix, manifest),
      this.parts(root, manifest, manifest.vectorTier !== undefined),
    ]);
    if (!graph) return undefined;
    return { version: memory.indexVersion, graph, chunks: new LiveChunks(recordParts(parts)) };
  }

  private async manifestOf(memory: Memory, prefix: string): Promise<IndexManifest> {
    const manifest = await readManifest(this.objects, objectKeys.indexRoot(memory.accountId, memory.id), prefix);
    if (!manifest) throw new Error(`index ${prefix} has no ${INDEX_FILES.manifest}`);
    return manifest;
  }

  /**
   * The parts composed into one index, with their live records by ordinal: what the owner's last composed
   * version shares with them (its first segments, with the same deletions) is copied from it.
   */
  private async compose(owner: string, parts: readonly Part[]): Promise<Composed> {
    const previous = await this.latest.peek(owner);
    const retrieval = await composed(parts, previous);
    const records = liveRecords(recordParts(parts), previous && { records: previous.records, parts: recordParts(previous.parts) });
    const made = { parts, retrieval, records };
    this.latest.set(owner, made);
    return made;
  }

  /**
   * The manifest's segments (folders under `root`), each read once per container (in parallel), with their tombstones; a tiered
   * memory's without their vectors (kept apart: the memory may move back).
   */
  private parts(root: string, manifest: IndexManifest, withoutVectors = false): Promise<Part[]> {
    return Promise.all(
      manifest.segments.map(async (entry) => {
        const folder = folderOf(root, entry.id);
        const read = async () => {
          const segment = await readQueriedSegment(this.objects, folder);
          return withoutVectors ? { ...segment, retrieval: vectorless(segment.retrieval) } : segment;
        };
        const segment = await this.segments.get(withoutVectors ? `${folder}#tier` : folder, read);
        return { segment, deleted: new Set(entry.deleted) };
      }),
    );
  }
}

interface Part {
  segment: QueriedSegment;
  deleted: ReadonlySet<number>;
}

/** A composed version: its parts, its index and its live records by ordinal. */
interface Composed {
  parts: readonly Part[];
  retrieval: RetrievalIndex;
  records: readonly ChunkRecord[];
}

const indexParts = (parts: readonly Part[]) => parts.map((part) => ({ index: part.segment.retrieval, deleted: part.deleted }));

/**
 * One retrieval index of the parts' live chunks: a lone segment with nothing deleted as it is; else
 * composed, copying what it shares with the `previous` version of the same owner.
 */
async function composed(parts: readonly Part[], previous?: Composed): Promise<RetrievalIndex> {
  const only = parts.length === 1 ? parts[0] : undefined;
  if (only && only.deleted.size === 0) return only.segment.retrieval;
  if (parts.length === 0) return buildRetrievalIndex([]);
  const before = previous && { index: previous.retrieval, parts: indexParts(previous.parts) };
  const index = composeRetrievalIndexes(indexParts(parts), before ? { previous: before } : {});
  // a tiered memory's segments hold no vectors, so the composition names no embedder: the segments' is kept
  return index.embedder === null ? { ...index, embedder: parts[0]?.segment.retrieval.embedder ?? null } : index;
}

/** The index without its vectors and their graph, its embedder still named (queries embed with it). */
const vectorless = (index: RetrievalIndex): RetrievalIndex => ({ ...index, vectors: null, ann: null });

const recordParts = (parts: readonly Part[]): RecordPart[] =>
  parts.map((part) => ({ chunks: part.segment.chunks, index: part.segment.retrieval, deleted: part.deleted }));
