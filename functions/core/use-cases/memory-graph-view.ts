/**
 * GET /memories/graph/{id}: a graph memory's knowledge graph from its table items, a page of nodes at a
 * time (in id order) with the edges that start at them, so every edge is listed exactly once across the
 * pages. A build writes its graph's items before it publishes (graph-items-sync.ts); a graph published
 * before graphs had items gets them from the worker when it is first viewed.
 */
import { BadRequestError } from '../errors';
import type { GraphEdge, GraphNode } from '../graph-items';
import type { PageRequest } from '../model';
import type { GraphItemStore, MemoryStore, QueuePort } from '../ports';
import type { WorkMessage } from '../work';
import { getMemory } from './memories';

export interface GraphPage {
  nodes: GraphNode[];
  edges: GraphEdge[];
  nextToken: string | null;
  previousToken: string | null;
}

export interface GraphViewDeps {
  memories: MemoryStore;
  graphItems: GraphItemStore;
  queue: QueuePort;
}

export async function viewMemoryGraph(deps: GraphViewDeps, accountId: string, id: string, page: PageRequest): Promise<GraphPage> {
  const memory = await getMemory(deps, accountId, id);
  if (memory.memoryType !== 'graph') throw BadRequestError.forField('id', `memory '${id}' is a vector memory; it has no graph`);
  const nodes = await deps.graphItems.pageNodes(accountId, id, page);
  if (nodes.items.length === 0 && memory.entityCount > 0 && !page.nextToken && !page.previousToken) {
    // a graph published before graphs had table items: the worker writes them, the next view shows them
    await deps.queue.send({ kind: 'memory.graph-items', accountId, memoryId: id } satisfies WorkMessage);
  }
  const first = nodes.items[0];
  const last = nodes.items[nodes.items.length - 1];
  const edges = first && last ? await deps.graphItems.edgesFrom(accountId, id, first.id, last.id) : [];
  return { nodes: nodes.items, edges, nextToken: nodes.nextToken, previousToken: nodes.previousToken };
}
