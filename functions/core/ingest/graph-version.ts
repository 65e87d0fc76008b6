/**
 * A graph memory's graph in an index version (docs/segments.md, "The graph of graph memories"): where a
 * build starts from (the graph the worker kept, else the stored one: a base and its deltas) and what it
 * writes: the graph segment retrieval walks, and either one delta (what the build changed) or, when the
 * chain is long or text must go, the graph whole as a new base; the segment retrieval walks likewise, as
 * its delta beside the graph's or whole beside the base (graph-segments.ts reads them); then the graph's
 * table items.
 */
import { buildGraphSegment, type GraphDelta, type GraphSnapshot, serializeGraphSegment } from '../../engine';
import { entitySnapshot, type MemoryGraph, relationSnapshot, snapshotGraph } from '../../engine/graph';
import { settleAll } from '../concurrency';
import { graphItemChangesOf, graphItemsOf } from '../graph-items';
import type { Memory } from '../model';
import { objectKeys } from '../object-keys';
import { graphChainOf, readGraphChain } from '../stored-index/graph-state';
import { composedGraphSegment } from '../stored-index/graph-segments';
import { INDEX_FILES } from '../stored-index/index-files';
import { type GraphChain, type IndexManifest, nameOf } from '../stored-index/manifest';
import type { IndexingSettings } from './index-build';
import type { BuiltGraph } from './memory-graph';
import { type GraphItemsDeps, writeGraphItems } from './graph-items-sync';
import { GRAPH_MERGE_POLICY } from './merge-policy';

/** Deltas a version's graph may name before a build writes it whole again (twice where a merge folds them). */
const MAX_GRAPH_DELTAS = 2 * GRAPH_MERGE_POLICY.deltas;
/** Nor may its deltas' bytes pass this share of its base's. */
const MAX_DELTA_SHARE = 2 * GRAPH_MERGE_POLICY.deltaShare;

/** What a build starts from: the stored graph (`previous`) or the worker's kept one (`cached`), and their chain. */
export interface GraphStart {
  previous: GraphSnapshot | undefined;
  cached?: MemoryGraph;
  chain?: GraphChain;
}

/** The graph the build of `memory` from its version (whose manifest is `current`) starts from. */
export async function graphStart(
  deps: Pick<GraphItemsDeps, 'objects'> & { indexing: IndexingSettings },
  memory: Memory,
  current: IndexManifest | undefined,
): Promise<GraphStart> {
  if (memory.memoryType !== 'graph' || !memory.indexPrefix) return { previous: undefined };
  const root = objectKeys.indexRoot(memory.accountId, memory.id);
  const chain = graphChainOf(root, memory.indexPrefix, current);
  const cached = deps.indexing.graphCache?.take(memory, chain.state);
  if (cached) return { previous: undefined, cached, chain };
  const previous = await readGraphChain(deps.objects, root, chain);
  // collected meanwhile (the memory moved on): the build starts again from the new version
  if (!previous && current?.graph) throw new Error(`the graph of memory ${memory.id} version ${memory.indexVersion} is gone`);
  return { previous, chain };
}

/**
 * A merge's graph, under its folder `prefix`: the same graph as the version it merges (`current`), its
 * deltas folded into a new base (the chain's content key kept, so a warm worker's graph still serves), and
 * its segment composed whole beside it; a chain with no deltas is named as it is. Answers the chain the
 * merge's manifest names (none: the state was copied whole into its folder, as a version written before
 * deltas holds it).
 */
export async function mergedGraph(
  objects: GraphItemsDeps['objects'],
  root: string,
  current: { prefix: string; manifest: IndexManifest },
  prefix: string,
): Promise<GraphChain | undefined> {
  const chain = current.manifest.graph;
  if (chain?.segmentDeltas && chain.deltas.length === 0) return chain;
  await writeMergedSegment(objects, root, current, prefix);
  if (chain && chain.deltas.length === 0) return chain;
  if (!chain) {
    const state = await objects.get(current.prefix + INDEX_FILES.state);
    if (state) await objects.put(prefix + INDEX_FILES.state, state, 'application/json');
    return undefined;
  }
  const snapshot = await readGraphChain(objects, root, chain);
  if (!snapshot) throw new Error(`the graph of ${current.prefix} is gone`);
  const state = JSON.stringify(snapshot);
  await objects.put(prefix + INDEX_FILES.state, state, 'application/json');
  const base = { base: nameOf(root, prefix), deltas: [], state: chain.state, baseBytes: Buffer.byteLength(state), deltaBytes: 0 };
  return chain.segmentDeltas ? { ...base, segmentDeltas: true } : base;
}

/** The merge's `graph.seg`: its chain's base and segment deltas composed whole, else (a version written before segment deltas) the version's own, copied. */
async function writeMergedSegment(
  objects: GraphItemsDeps['objects'],
  root: string,
  current: { prefix: string; manifest: IndexManifest },
  prefix: string,
): Promise<void> {
  const chain = current.manifest.graph;
  const segment = chain?.segmentDeltas
    ? serializeGraphSegment(await composedGraphSegment(objects, root, chain))
    : await objects.get(current.prefix + INDEX_FILES.segment);
  if (segment) await objects.put(prefix + INDEX_FILES.segment, segment);
}

export interface WrittenGraph {
  /** The chain the new version's manifest names. */
  chain: GraphChain;
  bytes: number;
}

/**
 * Writes the version's graph under `prefix`: a delta after `start`'s chain, or the graph whole when the
 * build has no delta (a new graph, or one stored before deltas), `whole` asks for it (text leaves the
 * memory: no earlier base may keep it), or the chain passed its bounds. Then the graph items.
 */
export async function writeGraph(
  deps: GraphItemsDeps,
  memory: Memory,
  prefix: string,
  { built, start, whole }: { built: BuiltGraph; start: GraphStart; whole: boolean },
): Promise<WrittenGraph> {
  const own = nameOf(objectKeys.indexRoot(memory.accountId, memory.id), prefix);
  let snapshot: GraphSnapshot | undefined;
  const snapshotOf = () => (snapshot ??= snapshotGraph(built.graph.graph));
  // a chain written before segment deltas takes none: the build writes the graph whole, as a base of both
  const continued = start.chain?.segmentDeltas && built.segmentDelta && !whole ? start.chain : undefined;
  const delta = continued && built.delta ? JSON.stringify(built.delta) : undefined;
  let chain: GraphChain;
  let bytes: number;
  if (delta && continued && built.segmentDelta && deltaWithinBounds(continued, Buffer.byteLength(delta))) {
    const segmentDelta = JSON.stringify(built.segmentDelta);
    bytes = Buffer.byteLength(delta) + Buffer.byteLength(segmentDelta);
    await settleAll([
      deps.objects.put(prefix + INDEX_FILES.delta, delta, 'application/json'),
      deps.objects.put(prefix + INDEX_FILES.segmentDelta, segmentDelta, 'application/json'),
    ]);
    chain = { ...continued, deltas: [...continued.deltas, own], state: own, deltaBytes: continued.deltaBytes + Buffer.byteLength(delta) };
  } else {
    const state = JSON.stringify(snapshotOf());
    const segment = serializeGraphSegment(buildGraphSegment(built.graph.graph));
    bytes = Buffer.byteLength(state) + segment.byteLength;
    await settleAll([
      deps.objects.put(prefix + INDEX_FILES.state, state, 'application/json'),
      deps.objects.put(prefix + INDEX_FILES.segment, segment),
    ]);
    chain = { base: own, deltas: [], state: own, baseBytes: Buffer.byteLength(state), deltaBytes: 0, segmentDeltas: true };
  }
  await writeItems(deps, memory, prefix, { built, start, items: () => graphItemsOf(snapshotOf()) });
  return { chain, bytes };
}

/** Whether one more delta of `bytes` keeps the chain within its bounds (else the graph is written whole). */
export function deltaWithinBounds(chain: Pick<GraphChain, 'baseBytes' | 'deltas' | 'deltaBytes'>, bytes: number): boolean {
  return chain.baseBytes > 0 && chain.deltas.length < MAX_GRAPH_DELTAS && chain.deltaBytes + bytes <= chain.baseBytes * MAX_DELTA_SHARE;
}

/** The items: the delta's changes when the items hold the graph the build started from, else compared whole. */
async function writeItems(
  deps: GraphItemsDeps,
  memory: Memory,
  prefix: string,
  { built, start, items }: { built: BuiltGraph; start: GraphStart; items: WrittenItems },
): Promise<void> {
  const startedAt = memory.indexPrefix;
  const from =
    built.delta && startedAt && start.chain
      ? { prefix: startedAt, state: start.chain.state, changes: graphItemChangesOf(built.delta, touchedRecords(built.graph, built.delta)) }
      : undefined;
  const known = !from && start.previous && startedAt ? { prefix: startedAt, items: graphItemsOf(start.previous) } : undefined;
  const target = { items, version: memory.indexVersion + 1, prefix, ...(from ? { from } : {}) };
  await writeGraphItems(deps, memory.accountId, memory.id, target, known);
}

/** The whole records of the entities and relations a delta touched. */
function touchedRecords(memory: MemoryGraph, delta: GraphDelta): Pick<GraphSnapshot, 'entities' | 'relations'> {
  const { entities, relations } = memory.graph;
  return {
    entities: delta.entities.flatMap((entity) => {
      const record = entities.get(entity.id);
      return record ? [entitySnapshot(record)] : [];
    }),
    relations: delta.relations.flatMap((relation) => {
      const record = relations.get(relation.id);
      return record ? [relationSnapshot(record)] : [];
    }),
  };
}

type WrittenItems = () => ReturnType<typeof graphItemsOf>;
