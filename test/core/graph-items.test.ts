/**
 * A graph memory's graph items (nodes, edges, state) over in-memory stores (the GraphItemStore contract in
 * test/contract/stores holds the table to the same): after concurrent builds, a removed source, a writer
 * that died mid-way, and the memory's deletion, the items are exactly the published graph's, and nothing
 * is left behind.
 */
import { describe, expect, it } from 'vitest';
import { memoryConfig, memoryDeps } from '../support/memory';
import type { GraphItems } from '../../functions/core/graph-items';
import { buildAndPublishIndex } from '../../functions/core/ingest/memory-index';
import { readGraphState } from '../../functions/core/stored-index/graph-state';
import { graphItemsOf } from '../../functions/core/graph-items';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { createMemory, deleteMemory } from '../../functions/core/use-cases/memories';
import { viewMemoryGraph } from '../../functions/core/use-cases/memory-graph-view';
import { createSession } from '../../functions/core/use-cases/sessions';
import { sessionSourceId } from '../../functions/core/model';
import { parseWork, runWork } from '../../functions/worker/dispatch';

const deps = memoryDeps(memoryConfig({ KMEM_EMBEDDER: 'none', KMEM_GRAPH_WORD_VECTORS: 'false' }));
const worker = deps.worker;

const TEXTS = [
  'Marie Curie discovered polonium in Paris. Marie Curie won the Nobel Prize in Physics.',
  'Pierre Curie worked with Marie Curie at the Sorbonne. The Sorbonne is a university in Paris.',
  'Albert Einstein visited Marie Curie in Paris. Albert Einstein developed the theory of relativity.',
];

const sorted = (items: GraphItems) => ({
  nodes: [...items.nodes].sort((a, b) => a.id.localeCompare(b.id)),
  edges: [...items.edges].sort((a, b) => `${a.source}#${a.id}`.localeCompare(`${b.source}#${b.id}`)),
});

async function publishedItems(accountId: string, memoryId: string): Promise<GraphItems> {
  const memory = await deps.memories.get(accountId, memoryId);
  return graphItemsOf(await readGraphState(deps.objects, memory?.indexPrefix ?? ''));
}

async function graphMemoryWithSessions(count: number) {
  const accountId = (await createAccount(deps, `graph-items-${process.pid}-${Date.now()}`)).account.id;
  const memory = await createMemory(deps, accountId, { name: 'g', memoryType: 'graph', ontology: 'culture' });
  const sessions = await Promise.all(Array.from({ length: count }, () => createSession(deps, accountId, {})));
  for (const session of sessions) {
    await deps.sessionLinks.create({ accountId, memoryId: memory.id, sessionId: session.id, createdAt: new Date().toISOString() });
  }
  return { accountId, memoryId: memory.id, sourceIds: sessions.map((session) => sessionSourceId(session.id)) };
}

const chunkOf = (sourceId: string, text: string) => ({ id: `msg:${sourceId}.1`, fileId: sourceId, text, start: 0, end: text.length });

describe('graph items', () => {
  it('hold exactly the published graph after concurrent builds, a removed source and a dirty state, and go with the memory', async () => {
    const { accountId, memoryId, sourceIds } = await graphMemoryWithSessions(3);
    await Promise.all(
      sourceIds.map((sourceId, i) =>
        buildAndPublishIndex(worker, accountId, memoryId, {
          added: new Map([[sourceId, [chunkOf(sourceId, TEXTS[i] ?? '')]]]),
          changes: ({ chunkCount }) => ({ chunkCount }),
        }),
      ),
    );
    const published = await publishedItems(accountId, memoryId);
    expect(published.nodes.length).toBeGreaterThan(3);
    expect(sorted(await deps.graphItems.readAll(accountId, memoryId))).toEqual(sorted(published));
    expect(published.nodes.some((node) => node.name === 'Albert Einstein')).toBe(true);

    // the source that alone mentions Einstein leaves: its entities and edges leave the items too
    const einsteinSource = sourceIds[2] ?? '';
    await deps.sessionLinks.delete(accountId, memoryId, einsteinSource.replace(/^session:/, ''));
    await buildAndPublishIndex(worker, accountId, memoryId, { added: new Map(), changes: () => ({}) });
    const after = await deps.graphItems.readAll(accountId, memoryId);
    expect(sorted(after)).toEqual(sorted(await publishedItems(accountId, memoryId)));
    expect(after.nodes.some((node) => node.name === 'Albert Einstein')).toBe(false);
    const curie = after.nodes.find((node) => node.name === 'Marie Curie');
    expect(curie?.support).toBe(2);

    // a writer died mid-way: the state is unknown and a stray node was left; the next build repairs it
    const stray = { id: 'e-stray', name: 'Stray', type: 'thing', aliases: ['Stray'], mentions: 1, support: 1 };
    const now = Date.now();
    expect(await deps.graphItems.acquire(accountId, memoryId, 'dying-writer', now, now + 60_000)).toBeDefined();
    await deps.graphItems.apply(accountId, memoryId, { putNodes: [stray], putEdges: [], removeNodes: [], removeEdges: [] });
    await deps.graphItems.release(accountId, memoryId, 'dying-writer', { version: 4, prefix: null });
    await buildAndPublishIndex(worker, accountId, memoryId, { added: new Map(), changes: () => ({}) });
    expect(sorted(await deps.graphItems.readAll(accountId, memoryId))).toEqual(sorted(await publishedItems(accountId, memoryId)));

    // the view pages through the items: every node once, every edge once, under its source
    const seen = { nodes: [] as string[], edges: [] as string[] };
    let nextToken: string | undefined;
    do {
      const page = await viewMemoryGraph(deps, accountId, memoryId, { limit: 2, ...(nextToken ? { nextToken } : {}) });
      seen.nodes.push(...page.nodes.map((node) => node.id));
      seen.edges.push(...page.edges.map((edge) => `${edge.source}#${edge.id}`));
      for (const edge of page.edges) expect(page.nodes.map((node) => node.id)).toContain(edge.source);
      nextToken = page.nextToken ?? undefined;
    } while (nextToken);
    const current = sorted(await deps.graphItems.readAll(accountId, memoryId));
    expect(seen.nodes).toEqual(current.nodes.map((node) => node.id));
    expect(seen.edges.sort()).toEqual(current.edges.map((edge) => `${edge.source}#${edge.id}`).sort());

    await deleteMemory(deps, accountId, memoryId);
    expect(await deps.graphItems.readAll(accountId, memoryId)).toEqual({ nodes: [], edges: [] });
    expect(await deps.graphItems.acquire(accountId, memoryId, 'next', Date.now(), Date.now() + 1)).toEqual({ version: 0, prefix: null });
  }, 60_000);

  it('are written for a graph published before graphs had items when it is first viewed', async () => {
    const { accountId, memoryId, sourceIds } = await graphMemoryWithSessions(1);
    const sourceId = sourceIds[0] ?? '';
    await buildAndPublishIndex(worker, accountId, memoryId, {
      added: new Map([[sourceId, [chunkOf(sourceId, TEXTS[0] ?? '')]]]),
      changes: () => ({}),
    });
    await deps.graphItems.deleteAll(accountId, memoryId); // as an earlier version left it: a graph, no items

    const first = await viewMemoryGraph(deps, accountId, memoryId, { limit: 100 });
    expect(first.nodes).toEqual([]);
    // other work (a purge merge, a retirement of older builds) may be queued beside it: pick this memory's graph items
    const received = (await deps.queue?.receive(10)) ?? [];
    const work = received.map((message) => parseWork(message.body)).find((parsed) => parsed?.kind === 'memory.graph-items');
    expect(work).toEqual({ kind: 'memory.graph-items', accountId, memoryId });
    if (work) await runWork(worker, work, { attempt: 1, workId: 'graph-items-1' });

    const published = await publishedItems(accountId, memoryId);
    const second = await viewMemoryGraph(deps, accountId, memoryId, { limit: 100 });
    expect(second.nodes.map((node) => node.id).sort()).toEqual(published.nodes.map((node) => node.id).sort());
    expect(sorted(await deps.graphItems.readAll(accountId, memoryId))).toEqual(sorted(published));
    if (work) await runWork(worker, work, { attempt: 2, workId: 'graph-items-2' }); // again: nothing changes
    expect(sorted(await deps.graphItems.readAll(accountId, memoryId))).toEqual(sorted(published));
  }, 60_000);
});
