/**
 * The graph segment of a graph memory's version as retrieval reads it (docs/segments.md, "The graph of
 * graph memories"): a chain written with segment deltas (`GraphChain.segmentDeltas`) is its base's
 * `graph.seg` with the deltas (`graph-seg-delta.json`) of its folders applied; a version written before
 * holds its `graph.seg` whole in its own folder.
 *
 * `GraphSegments` keeps what it composed by chain position (the base and the last delta applied: folders
 * are immutable), so a warm container that holds a version's segment applies only the deltas after it,
 * and a cold one reads the base and the deltas in parallel. Each composed segment is a new object, so the
 * structures retrieval derives from a segment (kept in WeakMaps by segment) are derived again for it.
 */
import {
  applySegmentDeltas,
  deserializeGraphSegment,
  type GraphSegment,
  type GraphSegmentDelta,
  type SegmentSource,
  segmentOfSource,
  sourceOfSegment,
} from '../../engine';
import type { ObjectStore } from '../ports';
import { INDEX_FILES } from './index-files';
import { folderOf, type GraphChain, type IndexManifest } from './manifest';
import { PromiseLru } from './promise-lru';

/** A composed position of a chain: the source deltas apply to, and its segment. */
interface Composed {
  source: SegmentSource;
  segment: GraphSegment;
}

export class GraphSegments {
  /** Composed positions kept (least recently used dropped first). */
  private readonly composed: PromiseLru<Composed>;

  /** `capacity`: composed positions kept. */
  constructor(
    private readonly objects: ObjectStore,
    capacity: number,
  ) {
    this.composed = new PromiseLru(capacity);
  }

  /** The graph segment of the version published at `prefix` under `root` (null: none stored). */
  async load(root: string, prefix: string, manifest: IndexManifest): Promise<GraphSegment | null> {
    const chain = manifest.graph;
    if (!chain?.segmentDeltas) {
      const bytes = await this.objects.get(prefix + INDEX_FILES.segment);
      return bytes ? deserializeGraphSegment(bytes) : null;
    }
    return (await this.position(root, chain, chain.deltas.length)).segment;
  }

  /** The chain's base with its first `count` deltas applied, from the longest position kept. */
  private position(root: string, chain: GraphChain, count: number): Promise<Composed> {
    return this.composed.get(positionKey(root, chain, count), () => {
      let from = count - 1;
      while (from >= 0 && !this.composed.peek(positionKey(root, chain, from))) from--;
      const start = from >= 0 ? this.position(root, chain, from) : undefined;
      return composeChain(this.objects, root, chain, { start, from: Math.max(from, 0), count });
    });
  }
}

/** A chain position by its folders: the base and the last delta applied. */
const positionKey = (root: string, chain: GraphChain, count: number): string =>
  `${root}${chain.base}|${count > 0 ? (chain.deltas[count - 1] ?? '') : ''}`;

/**
 * The chain's base with its first `count` deltas applied: from `start` (the position `from`, when kept)
 * with the deltas after it, else from the base; the deltas read in parallel with it.
 */
async function composeChain(
  objects: ObjectStore,
  root: string,
  chain: GraphChain,
  { start, from, count }: { start: Promise<Composed> | undefined; from: number; count: number },
): Promise<Composed> {
  const first = start ? from : 0;
  const [begun, ...deltas] = await Promise.all([
    start ?? readBase(objects, root, chain),
    ...chain.deltas.slice(first, count).map((folder) => readSegmentDelta(objects, root, folder)),
  ]);
  if (deltas.length === 0) return begun;
  const source = applySegmentDeltas(begun.source, deltas);
  return { source, segment: segmentOfSource(source) };
}

async function readBase(objects: ObjectStore, root: string, chain: GraphChain): Promise<Composed> {
  const bytes = await objects.get(folderOf(root, chain.base) + INDEX_FILES.segment);
  if (!bytes) throw new Error(`graph segment of ${chain.base} is gone`);
  const segment = deserializeGraphSegment(bytes);
  const source = sourceOfSegment(segment);
  if (!source) throw new Error(`graph segment of ${chain.base} carries no keys for its deltas`);
  return { source, segment };
}

async function readSegmentDelta(objects: ObjectStore, root: string, folder: string): Promise<GraphSegmentDelta> {
  const bytes = await objects.get(folderOf(root, folder) + INDEX_FILES.segmentDelta);
  if (!bytes) throw new Error(`graph segment delta of ${folder} is gone`);
  return JSON.parse(Buffer.from(bytes).toString('utf8')) as GraphSegmentDelta;
}

/** The whole segment of a chain (a merge folding it writes it as its base); read once, not kept. */
export async function composedGraphSegment(objects: ObjectStore, root: string, chain: GraphChain): Promise<GraphSegment> {
  return (await composeChain(objects, root, chain, { start: undefined, from: 0, count: chain.deltas.length })).segment;
}
