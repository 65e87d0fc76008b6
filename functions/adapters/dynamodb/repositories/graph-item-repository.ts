import type { GraphEdge, GraphItemChanges, GraphItems, GraphItemsState, GraphNode } from '../../../core/graph-items';
import type { Page, PageRequest } from '../../../core/model';
import type { GraphItemStore } from '../../../core/ports';
import { GRAPH_EDGE_PREFIX, GRAPH_NODE_PREFIX, keys } from '../keys';
import type { Item, Table } from '../table';

/**
 * A graph memory's nodes and edges as items of its GRAPH partition (edges sorted under their source node,
 * nodes also on gsi1 for paging), and a STATE item: the version the items hold and the worker changing them.
 */
export class GraphItemRepository implements GraphItemStore {
  constructor(private readonly table: Table) {}

  async acquire(accountId: string, memoryId: string, holder: string, nowMs: number, untilMs: number): Promise<GraphItemsState | undefined> {
    const taken = await this.table.exchange(
      keys.graphState(accountId, memoryId),
      { kind: 'graphState', holder, leaseUntil: untilMs, prefix: null },
      { expression: 'attribute_not_exists(leaseUntil) OR leaseUntil < :now', names: {}, values: { ':now': nowMs } },
    );
    if (taken === 'refused') return undefined;
    const before = taken.before;
    return { version: Number(before?.version ?? 0), prefix: typeof before?.prefix === 'string' ? before.prefix : null };
  }

  async release(accountId: string, memoryId: string, holder: string, state: GraphItemsState): Promise<void> {
    await this.table.exchange(
      keys.graphState(accountId, memoryId),
      { version: state.version, prefix: state.prefix, leaseUntil: 0 },
      { expression: 'holder = :holder', names: {}, values: { ':holder': holder } },
    );
  }

  async apply(accountId: string, memoryId: string, changes: GraphItemChanges): Promise<void> {
    await this.table.putMany([
      ...changes.putNodes.map((node) => this.nodeItem(accountId, memoryId, node)),
      ...changes.putEdges.map(({ kind, ...edge }) => ({
        ...keys.graphEdge(accountId, memoryId, edge.source, edge.id),
        ...edge,
        kind: 'graphEdge',
        relationKind: kind,
      })),
    ]);
    await this.table.deleteMany([
      ...changes.removeNodes.map((id) => keys.graphNode(accountId, memoryId, id)),
      ...changes.removeEdges.map((edge) => keys.graphEdge(accountId, memoryId, edge.source, edge.id)),
    ]);
  }

  async readAll(accountId: string, memoryId: string): Promise<GraphItems> {
    const partition = keys.graphPartition(accountId, memoryId);
    const [nodes, edges] = await Promise.all([
      this.table.queryAll(partition, GRAPH_NODE_PREFIX),
      this.table.queryAll(partition, GRAPH_EDGE_PREFIX),
    ]);
    return { nodes: nodes.map(toNode), edges: edges.map(toEdge) };
  }

  async pageNodes(accountId: string, memoryId: string, page: PageRequest): Promise<Page<GraphNode>> {
    const partition = keys.graphNodesOf(accountId, memoryId);
    const result = await this.table.queryPage({ index: 'gsi1', partition, scope: `graph|${partition}`, page });
    return { ...result, items: result.items.map(toNode) };
  }

  async getNodes(accountId: string, memoryId: string, ids: readonly string[]): Promise<GraphNode[]> {
    return (await this.table.getMany(ids.map((id) => keys.graphNode(accountId, memoryId, id)))).map(toNode);
  }

  async edgesFrom(accountId: string, memoryId: string, firstSource: string, lastSource: string): Promise<GraphEdge[]> {
    const from = keys.graphEdge(accountId, memoryId, firstSource, '').sk;
    const to = `${keys.graphEdge(accountId, memoryId, lastSource, '').sk}\uffff`;
    return (await this.table.queryBetween(keys.graphPartition(accountId, memoryId), from, to)).map(toEdge);
  }

  async deleteAll(accountId: string, memoryId: string): Promise<void> {
    const items = await this.table.queryAll(keys.graphPartition(accountId, memoryId));
    await this.table.deleteMany(items.map((item) => ({ pk: String(item.pk), sk: String(item.sk) })));
  }

  private nodeItem(accountId: string, memoryId: string, node: GraphNode): Item & { pk: string; sk: string } {
    return {
      ...keys.graphNode(accountId, memoryId, node.id),
      gsi1pk: keys.graphNodesOf(accountId, memoryId),
      gsi1sk: node.id,
      kind: 'graphNode',
      ...node,
    };
  }
}

function toNode(item: Item): GraphNode {
  return {
    id: String(item.id),
    name: String(item.name),
    type: String(item.type),
    aliases: Array.isArray(item.aliases) ? item.aliases.map(String) : [],
    mentions: Number(item.mentions),
    support: Number(item.support),
  };
}

function toEdge(item: Item): GraphEdge {
  return {
    id: String(item.id),
    source: String(item.source),
    target: String(item.target),
    predicate: String(item.predicate),
    kind: String(item.relationKind),
    weight: Number(item.weight),
    support: Number(item.support),
  };
}
