/**
 * A memory's published index as retrieval reads it: the retrieval index, the chunk records (sources,
 * message times) and, for graph memories, the graph segment. Versions are immutable, so a warm container
 * keeps what it loaded under the memory's id and version; a new version is read on the next query.
 */
import { deserializeGraphSegment, deserializeRetrievalIndex, type GraphSegment, type RetrievalIndex } from '../../engine';
import { decodeChunks, type StoredChunk } from './chunks';
import { INDEX_FILES } from './index-files';
import type { Memory } from '../model';
import type { ObjectStore } from '../ports';

export interface LoadedIndex {
  version: number;
  retrieval: RetrievalIndex;
  /** Chunk records by id (file, page, message time and role). */
  chunks: ReadonlyMap<string, StoredChunk>;
  graph: GraphSegment | null;
}

/** A graph memory's published graph segment with its chunk records, without the retrieval index. */
export interface LoadedGraph {
  version: number;
  graph: GraphSegment;
  chunks: ReadonlyMap<string, StoredChunk>;
}

export class IndexCache {
  private readonly loaded = new Map<string, Promise<LoadedIndex | LoadedGraph>>();

  constructor(
    private readonly objects: ObjectStore,
    private readonly capacity: number,
  ) {}

  /** The memory's current index (undefined before its first ingestion). */
  load(memory: Memory): Promise<LoadedIndex> | undefined {
    const prefix = memory.indexPrefix;
    if (!prefix) return undefined;
    return this.loadBuild(
      `${memory.accountId}/${memory.id}@${memory.indexVersion}`,
      prefix,
      memory.indexVersion,
      memory.memoryType === 'graph',
    );
  }

  /** A published build by its prefix, kept under `key` (unique per build: an owner and a version). */
  loadBuild(key: string, prefix: string, version: number, withGraph = false): Promise<LoadedIndex> {
    return this.cached(key, () => this.read(prefix, version, withGraph));
  }

  /** A graph memory's current graph segment and chunks (undefined before its first ingestion). */
  loadGraph(memory: Memory): Promise<LoadedGraph | undefined> | undefined {
    const prefix = memory.indexPrefix;
    if (!prefix || memory.memoryType !== 'graph') return undefined;
    return this.cached(`${memory.accountId}/${memory.id}@${memory.indexVersion}#graph`, () => this.readGraph(prefix, memory.indexVersion));
  }

  private cached<T extends LoadedIndex | LoadedGraph | undefined>(key: string, read: () => Promise<T>): Promise<T> {
    let entry = this.loaded.get(key) as Promise<T> | undefined;
    if (!entry) {
      entry = read();
      entry.catch(() => this.loaded.delete(key));
      this.remember(key, entry as Promise<LoadedIndex | LoadedGraph>);
    } else {
      this.loaded.delete(key); // most recently used last
      this.loaded.set(key, entry as Promise<LoadedIndex | LoadedGraph>);
    }
    return entry;
  }

  private remember(key: string, entry: Promise<LoadedIndex | LoadedGraph>): void {
    this.loaded.set(key, entry);
    while (this.loaded.size > this.capacity) {
      const oldest = this.loaded.keys().next().value;
      if (oldest === undefined) break;
      this.loaded.delete(oldest);
    }
  }

  private async read(prefix: string, version: number, withGraph: boolean): Promise<LoadedIndex> {
    const [retrieval, chunks, graph] = await Promise.all([
      this.objects.get(prefix + INDEX_FILES.retrieval),
      this.objects.get(prefix + INDEX_FILES.chunks),
      withGraph ? this.objects.get(prefix + INDEX_FILES.segment) : Promise.resolve(undefined),
    ]);
    if (!retrieval) throw new Error(`index ${prefix} has no ${INDEX_FILES.retrieval}`);
    return {
      version,
      retrieval: deserializeRetrievalIndex(retrieval),
      chunks: new Map(decodeChunks(chunks).map((chunk) => [chunk.id, chunk])),
      graph: graph ? deserializeGraphSegment(graph) : null,
    };
  }

  private async readGraph(prefix: string, version: number): Promise<LoadedGraph | undefined> {
    const [segment, chunks] = await Promise.all([
      this.objects.get(prefix + INDEX_FILES.segment),
      this.objects.get(prefix + INDEX_FILES.chunks),
    ]);
    if (!segment) return undefined;
    return { version, graph: deserializeGraphSegment(segment), chunks: new Map(decodeChunks(chunks).map((chunk) => [chunk.id, chunk])) };
  }
}
