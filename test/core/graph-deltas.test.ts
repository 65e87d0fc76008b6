/**
 * A graph memory's graph stored as a base plus deltas (docs/segments.md, "The graph of graph memories"),
 * through the worker's build and merge: syncs write one delta each (no whole state), a cold worker and
 * every reader compose the same graph the warm worker kept, a crash between writing a delta and
 * publishing leaves nothing cached and nothing published, a merge folds the deltas into a new base (also
 * when it races a sync), and the graph items stay those of the published graph. The segment retrieval walks
 * (`graph.seg`) likewise: one small segment delta per sync, composed by query containers (a warm one that
 * loaded every version reads only the new delta) into the segment built whole from the same graph.
 */
import { describe, expect, it } from 'vitest';
import { memoryConfig, memoryDeps } from '../support/memory';
import { buildAndPublishIndex } from '../../functions/core/ingest/memory-index';
import { mergeMemory } from '../../functions/core/ingest/merge-memory';
import { buildMemoryGraph, OFFLINE_GRAPH_EXTRACTOR } from '../../functions/core/ingest/memory-graph';
import { graphItemsOf, type GraphItems } from '../../functions/core/graph-items';
import { readGraphState } from '../../functions/core/stored-index/graph-state';
import { INDEX_FILES } from '../../functions/core/stored-index/index-files';
import { encodeManifest, readManifest } from '../../functions/core/stored-index/manifest';
import { objectKeys } from '../../functions/core/object-keys';
import type { StoredChunk } from '../../functions/core/stored-index/chunks';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { createMemory } from '../../functions/core/use-cases/memories';
import { createSession } from '../../functions/core/use-cases/sessions';
import { sessionSourceId, type SourceId } from '../../functions/core/model';
import { snapshotGraph, type GraphSnapshot } from '../../functions/engine/graph/graph-snapshot';
import type { MemoryGraph } from '../../functions/engine/graph/graph-build';
import { buildGraphSegment } from '../../functions/engine/graph/graph-segment';
import { deserializeGraphSegment, serializeGraphSegment } from '../../functions/engine/graph/graph-segment-format';
import { IndexCache } from '../../functions/core/stored-index/index-cache';
import type { ObjectStore } from '../../functions/core/ports';

const deps = memoryDeps(memoryConfig({ KMEM_EMBEDDER: 'none', KMEM_GRAPH_WORD_VECTORS: 'false' }));
const worker = deps.worker;
/** A worker that keeps no graph: every build reads the stored base and deltas. */
const cold = { ...worker, indexing: { ...worker.indexing, graphCache: undefined } };

const LINES = [
  'I live in Paris and I work at Globex.',
  'Marie Curie discovered polonium in Paris.',
  'I moved to Berlin. I love jazz.',
  'Pierre Curie worked with Marie Curie at the Sorbonne.',
  'I work at Initech now. Albert Einstein visited Marie Curie.',
  'I moved to Lisbon and I prefer window seats.',
];

const sorted = (items: GraphItems) => ({
  nodes: [...items.nodes].sort((a, b) => a.id.localeCompare(b.id)),
  edges: [...items.edges].sort((a, b) => `${a.source}#${a.id}`.localeCompare(`${b.source}#${b.id}`)),
});

async function graphMemory(sessions: number) {
  const accountId = (await createAccount(deps, `graph-deltas-${process.pid}-${Date.now()}`)).account.id;
  const memory = await createMemory(deps, accountId, { name: 'g', memoryType: 'graph', ontology: 'culture' });
  const ids = await Promise.all(Array.from({ length: sessions }, () => createSession(deps, accountId, {})));
  for (const session of ids)
    await deps.sessionLinks.create({ accountId, memoryId: memory.id, sessionId: session.id, createdAt: new Date().toISOString() });
  return { accountId, memoryId: memory.id, sources: ids.map((session) => sessionSourceId(session.id)) };
}

const PEOPLE = ['Ada Lovelace', 'Alan Turing', 'Grace Hopper', 'Claude Shannon', 'John von Neumann', 'Emmy Noether'];
const PLACES = ['London', 'Princeton', 'Vienna', 'Boston', 'Zurich', 'Cambridge', 'Geneva'];

/** A long first session, so the graph is larger than what one sync changes. */
const history = (i: number) =>
  `${PEOPLE[i % PEOPLE.length]} met ${PEOPLE[(i * 5 + 1) % PEOPLE.length]} in ${PLACES[i % PLACES.length]} in ${1900 + i}.`;

/** The session's messages after `count` syncs: one more message each time (the first session: 60 of history). */
function messages(source: SourceId, count: number, first = false): StoredChunk[] {
  const sessionId = source.replace(/^session:/, '');
  return Array.from({ length: first ? 60 : count }, (_, i) => {
    const id = `${sessionId}-${i}`;
    const createdAt = new Date(Date.UTC(2024, 0, 1 + i)).toISOString();
    const message = { id, sessionId, role: 'user', customerUserId: `user-${sessionId}`, createdAt };
    const text = first ? history(i) : (LINES[i % LINES.length] ?? '');
    return { id: `msg:${id}`, fileId: source, text, start: 0, end: text.length, message };
  });
}

/** The same syncs built the way the worker did before deltas: the whole stored state restored at every build. */
class Reference {
  private snapshot: GraphSnapshot | undefined;
  /** The whole segment of the reference graph, as every build wrote it before segment deltas. */
  segment: Uint8Array | undefined;
  async sync(added: Map<SourceId, StoredChunk[]>, kept: Set<string>): Promise<void> {
    const previous = this.snapshot && (JSON.parse(JSON.stringify(this.snapshot)) as GraphSnapshot);
    const built = await buildMemoryGraph(
      { id: 'ref', ontology: 'culture', factExtraction: false },
      { previous, added, kept },
      {
        wordVectors: undefined,
        extractor: OFFLINE_GRAPH_EXTRACTOR,
      },
    );
    this.snapshot = snapshotGraph((built.graph as MemoryGraph).graph);
    this.segment = serializeGraphSegment(buildGraphSegment((built.graph as MemoryGraph).graph));
  }
  get graph(): GraphSnapshot | undefined {
    return this.snapshot;
  }
}

/** The store, noting the graph objects read (`graph.seg`, segment deltas) while `reads` is set. */
function noting(objects: ObjectStore): { objects: ObjectStore; reads: string[] } {
  const noted = { reads: [] as string[] };
  const get = (key: string) => {
    if (key.endsWith(INDEX_FILES.segment) || key.endsWith(INDEX_FILES.segmentDelta)) noted.reads.push(key);
    return objects.get(key);
  };
  return Object.assign(noted, { objects: Object.assign(Object.create(objects) as ObjectStore, { get }) });
}

/** The published version's graph segment, as a query container loads it, serialised. */
async function loadedSegment(cache: IndexCache, accountId: string, memoryId: string): Promise<Uint8Array | undefined> {
  const memory = await deps.memories.get(accountId, memoryId);
  const loaded = memory && (await cache.loadGraph(memory));
  return loaded ? serializeGraphSegment(loaded.graph) : undefined;
}

async function published(accountId: string, memoryId: string) {
  const memory = await deps.memories.get(accountId, memoryId);
  const prefix = memory?.indexPrefix ?? '';
  const manifest = await readManifest(deps.objects, objectKeys.indexRoot(accountId, memoryId), prefix);
  return { memory, prefix, manifest, graph: await readGraphState(deps.objects, prefix) };
}

describe('graph deltas', () => {
  it('write one delta per sync, compose to the graph built whole, survive a crash before the publish, and fold in a merge', async () => {
    const { accountId, memoryId, sources: all } = await graphMemory(4);
    const [bulk, ...sources] = all as [SourceId, ...SourceId[]];
    const reference = new Reference();
    const history = new Map([[bulk, messages(bulk, 0, true)]]);
    await buildAndPublishIndex(worker, accountId, memoryId, { added: history, changes: () => ({}) });
    await reference.sync(history, new Set(all));
    const counts = new Map<SourceId, number>();
    // a warm query container that loads every version published
    const store = noting(deps.objects);
    const warm = new IndexCache(store.objects, 4);
    const sync = async (source: SourceId, by = worker) => {
      const count = (counts.get(source) ?? 0) + 1;
      counts.set(source, count);
      const added = new Map([[source, messages(source, count)]]);
      await buildAndPublishIndex(by, accountId, memoryId, { added, changes: () => ({}) });
      await reference.sync(added, new Set(all));
      store.reads.length = 0;
      expect(await loadedSegment(warm, accountId, memoryId)).toEqual(reference.segment);
    };
    expect(await loadedSegment(warm, accountId, memoryId)).toEqual(reference.segment);
    for (let round = 0; round < 3; round++) for (const source of sources) await sync(source, round === 1 ? cold : worker);

    let now = await published(accountId, memoryId);
    expect(now.manifest?.graph?.deltas.length).toBeGreaterThan(2);
    expect(await deps.objects.get(now.prefix + INDEX_FILES.delta)).toBeDefined();
    expect(await deps.objects.get(now.prefix + INDEX_FILES.state)).toBeUndefined();
    expect(now.graph).toEqual(reference.graph);
    // the segment: a small delta beside the graph's, no whole graph.seg; the warm container read only that delta
    const segmentDelta = await deps.objects.get(now.prefix + INDEX_FILES.segmentDelta);
    expect(await deps.objects.get(now.prefix + INDEX_FILES.segment)).toBeUndefined();
    expect(segmentDelta?.byteLength).toBeLessThan((reference.segment?.byteLength ?? 0) / 4);
    expect(store.reads).toEqual([now.prefix + INDEX_FILES.segmentDelta]);
    expect(await loadedSegment(new IndexCache(deps.objects, 1), accountId, memoryId)).toEqual(reference.segment);
    expect(now.graph?.files.some((file) => (file.statementRows ?? []).some((row) => row[8] !== null))).toBe(true); // a move closed a residence
    expect(sorted(await deps.graphItems.readAll(accountId, memoryId))).toEqual(sorted(graphItemsOf(reference.graph)));

    // a crash between writing the delta and publishing: nothing published, nothing kept; the next sync is right
    const crashing = {
      ...worker,
      memories: Object.assign(Object.create(deps.memories) as typeof deps.memories, {
        commitIndexVersion: () => Promise.reject(new Error('worker killed')),
      }),
    };
    const source = sources[0] as SourceId;
    const added = new Map([[source, messages(source, (counts.get(source) ?? 0) + 1)]]);
    await expect(buildAndPublishIndex(crashing, accountId, memoryId, { added, changes: () => ({}) })).rejects.toThrow('worker killed');
    expect((await published(accountId, memoryId)).prefix).toBe(now.prefix);
    await sync(source);
    now = await published(accountId, memoryId);
    expect(now.graph).toEqual(reference.graph);
    expect(await loadedSegment(new IndexCache(deps.objects, 1), accountId, memoryId)).toEqual(reference.segment);

    // a merge folds the deltas into a new base, the same graph; a sync racing it loses nothing
    const before = now.graph;
    await mergeMemory(worker, { kind: 'memory.merge', accountId, memoryId });
    now = await published(accountId, memoryId);
    expect(now.manifest?.graph?.deltas).toEqual([]);
    expect(now.graph).toEqual(before);
    expect(await deps.objects.get(now.prefix + INDEX_FILES.segment)).toBeDefined(); // the merge writes the segment whole
    expect(await loadedSegment(new IndexCache(deps.objects, 1), accountId, memoryId)).toEqual(reference.segment);
    await Promise.all([sync(sources[1] as SourceId), mergeMemory(worker, { kind: 'memory.merge', accountId, memoryId })]);
    for (const next of sources) await sync(next);
    await mergeMemory(worker, { kind: 'memory.merge', accountId, memoryId });
    now = await published(accountId, memoryId);
    expect(now.graph).toEqual(reference.graph);
    expect(sorted(await deps.graphItems.readAll(accountId, memoryId))).toEqual(sorted(graphItemsOf(reference.graph)));
    expect(await loadedSegment(new IndexCache(deps.objects, 1), accountId, memoryId)).toEqual(reference.segment);
    expect(await loadedSegment(warm, accountId, memoryId)).toEqual(reference.segment);
  }, 120_000);

  it('load a version written before segment deltas, and write a base at the next sync', async () => {
    const { accountId, memoryId, sources: all } = await graphMemory(2);
    const [first, second] = all as [SourceId, SourceId];
    const reference = new Reference();
    const sync = async (source: SourceId, count: number) => {
      // the first session long (its history), so one more message is a delta within the chain's bounds
      const added = new Map([[source, messages(source, count, source === first)]]);
      await buildAndPublishIndex(worker, accountId, memoryId, { added, changes: () => ({}) });
      await reference.sync(added, new Set(all));
    };
    await sync(first, 3);
    // the version as the code before segment deltas wrote it: no `segmentDeltas`, its graph.seg whole and keyless
    const old = await published(accountId, memoryId);
    const { keys: _keys, ...keyless } = deserializeGraphSegment(reference.segment ?? new Uint8Array());
    const oldSegment = serializeGraphSegment(keyless);
    const { segmentDeltas: _flag, ...chain } = old.manifest?.graph ?? { base: '', deltas: [], state: '', baseBytes: 0, deltaBytes: 0 };
    if (!old.manifest) throw new Error('no manifest');
    await deps.objects.put(old.prefix + INDEX_FILES.manifest, encodeManifest({ ...old.manifest, graph: chain }));
    await deps.objects.put(old.prefix + INDEX_FILES.segment, oldSegment);
    expect(await loadedSegment(new IndexCache(deps.objects, 1), accountId, memoryId)).toEqual(oldSegment);

    // the next sync cannot extend that chain's segment: it writes the graph and its segment whole, a new base
    await sync(second, 2);
    let now = await published(accountId, memoryId);
    expect(now.manifest?.graph).toMatchObject({ deltas: [], segmentDeltas: true });
    expect(await deps.objects.get(now.prefix + INDEX_FILES.segment)).toBeDefined();
    expect(await loadedSegment(new IndexCache(deps.objects, 1), accountId, memoryId)).toEqual(reference.segment);
    await sync(second, 3);
    now = await published(accountId, memoryId);
    expect(now.manifest?.graph?.deltas).toHaveLength(1);
    expect(await loadedSegment(new IndexCache(deps.objects, 1), accountId, memoryId)).toEqual(reference.segment);
  }, 60_000);
});
