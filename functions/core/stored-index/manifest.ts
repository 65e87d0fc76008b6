/**
 * A memory's index manifest: the immutable segments its published version is made of, in order, each
 * with the ordinals of its deleted chunks (tombstones, sorted) and the embedder of its vectors. Stored as
 * `manifest.json` in the version's folder (`index/v<n>-<uuid>/`), which the memory item names; segments
 * live beside the versions, each in its own folder (`index/<segment id>/`). See docs/segments.md.
 *
 * A version written before segments (a folder holding `retrieval.idx` and `chunks.json` itself) reads as
 * a manifest of one segment: that folder.
 */
import { isGeneration } from '../vector-tier/index-names';
import { INDEX_FILES } from './index-files';
import type { ObjectStore } from '../ports';

export interface SegmentEntry {
  /** The segment's folder name under the memory's index root: `s<version>-<uuid>` (or a pre-segment `v<n>-<uuid>`). */
  id: string;
  /** Chunks the segment holds, deleted ones included. */
  chunks: number;
  /** Ordinals of its deleted chunks, ascending. */
  deleted: number[];
  /** The embedder that made its vectors (null: none). */
  embedder: string | null;
  /** Holds tombstones of sources no longer in the memory: the next merge rewrites it (their text must go). */
  purge?: boolean;
  /**
   * Sources with live chunks in the segment (a source's live chunks are in one segment: a build tombstones
   * every earlier chunk of what it adds). Absent in entries written before it was kept, and for a merged
   * segment: the next build counts them once from the segment's `files.json`.
   */
  sources?: number;
}

export interface IndexManifest {
  format: 1;
  segments: SegmentEntry[];
  /**
   * Present when the memory's vectors live in the vector tier (docs/scale.md): queries take their vector
   * candidates from its index (of `dimension` values; the index of `generation`, absent for one made
   * before generations) and keep those the manifest holds live.
   */
  vectorTier?: { dimension: number; generation?: string };
  /** A graph memory's graph: a base and the deltas after it (absent: the state in the version's own folder). */
  graph?: GraphChain;
}

/**
 * Where a graph memory's graph of a version is stored (docs/segments.md, "The graph of graph memories"):
 * the folder holding the base (`graph-state.json`) and, in order, the folders holding each delta after it
 * (`graph-delta.json`); `state` names the graph's content (the folder of the build that made it: a merge
 * that folds the deltas into a new base keeps it), which is how a warm worker knows its kept graph. The
 * same folders hold the segment retrieval walks as a base and deltas (`segmentDeltas`).
 */
export interface GraphChain {
  base: string;
  deltas: string[];
  state: string;
  baseBytes: number;
  deltaBytes: number;
  /**
   * The query side's segment is a base and deltas too: the base folder's `graph.seg` carries the keys deltas
   * apply to and each delta folder holds `graph-seg-delta.json` (absent: a chain written before, where every
   * version folder holds its `graph.seg` whole).
   */
  segmentDeltas?: true;
}

/** A manifest read from a pre-segment version: its embedder is not known until the segment is read. */
const UNKNOWN_EMBEDDER = '?';

export const liveChunks = (entry: SegmentEntry): number => entry.chunks - entry.deleted.length;

export function encodeManifest(manifest: IndexManifest): string {
  return JSON.stringify(manifest);
}

function decodeManifest(bytes: Uint8Array): IndexManifest {
  const value = JSON.parse(Buffer.from(bytes).toString('utf8')) as Partial<IndexManifest> | null;
  if (value?.format !== 1 || !Array.isArray(value.segments)) throw new Error('Invalid index manifest');
  for (const entry of value.segments) if (!validEntry(entry)) throw new Error('Invalid index manifest: bad segment entry');
  const tier = value.vectorTier;
  if (tier !== undefined && (!Number.isInteger(tier?.dimension) || (tier.generation !== undefined && !isGeneration(tier.generation))))
    throw new Error('Invalid index manifest: bad vectorTier');
  const graph = value.graph;
  if (graph !== undefined && (typeof graph?.base !== 'string' || !Array.isArray(graph.deltas) || typeof graph.state !== 'string'))
    throw new Error('Invalid index manifest: bad graph');
  return value as IndexManifest;
}

function validEntry(entry: SegmentEntry | undefined): boolean {
  if (typeof entry?.id !== 'string' || !Number.isInteger(entry.chunks) || !Array.isArray(entry.deleted)) return false;
  return entry.sources === undefined || (Number.isInteger(entry.sources) && entry.sources >= 0);
}

/** The folders a version names besides its own and its segments': its graph's base and deltas. */
export const graphFoldersOf = (manifest: IndexManifest): string[] =>
  manifest.graph ? [manifest.graph.base, ...manifest.graph.deltas] : [];

/** The folder of a version or segment, by its name under the memory's index root. */
export const folderOf = (root: string, id: string): string => `${root}${id}/`;

/** The name of a folder under `root` (`index/v3-…/` → `v3-…`). */
export const nameOf = (root: string, prefix: string): string => prefix.slice(root.length).replace(/\/$/, '');

/**
 * The manifest of the version published under `prefix` (a folder under `root`); a pre-segment version
 * reads as one segment, the folder itself. Undefined when the folder is gone.
 */
export async function readManifest(objects: ObjectStore, root: string, prefix: string): Promise<IndexManifest | undefined> {
  const bytes = await objects.get(prefix + INDEX_FILES.manifest);
  if (bytes) return decodeManifest(bytes);
  const legacy = await objects.get(prefix + INDEX_FILES.chunks);
  if (!legacy) return undefined;
  const chunks = (JSON.parse(Buffer.from(legacy).toString('utf8')) as unknown[]).length;
  return { format: 1, segments: [{ id: nameOf(root, prefix), chunks, deleted: [], embedder: UNKNOWN_EMBEDDER }] };
}
