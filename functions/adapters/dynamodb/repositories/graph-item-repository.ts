import { z } from 'zod';
import type { GraphEdge, GraphItemChanges, GraphItems, GraphItemsState, GraphNode } from '../../../core/graph-items';
import type { Page, PageRequest } from '../../../core/model';
import { ConflictError } from '../../../core/errors';
import type { GraphItemStore } from '../../../core/ports';
import { itemOf, itemSchema, nullable, readAll } from '../item-schema';
import { GRAPH_EDGE_PREFIX, GRAPH_NODE_PREFIX, keys } from '../keys';
import type { Item, Table } from '../table';

const nodeItem = itemSchema<GraphNode>(
  'graphNode',
  z.object({
    id: z.string(),
    name: z.string(),
    type: z.string(),
    aliases: z.array(z.string()).default([]),
    mentions: z.number(),
    support: z.number(),
  }),
);

/** An edge as stored: its relation kind under `relationKind` (`kind` is the item's). */
const edgeItem = itemSchema<GraphEdge>(
  'graphEdge',
  z.object({
    id: z.string(),
    source: z.string(),
    target: z.string(),
    predicate: z.string(),
    kind: z.string(),
    weight: z.number(),
    support: z.number(),
    validFrom: z.string().optional(),
    validTo: z.string().nullable().optional(),
  }),
  { stored: { kind: 'relationKind' } },
);

/** The version and build the items hold, as the STATE item keeps them (a first lease finds none: 0, null). */
const stateItem = itemSchema<GraphItemsState>('graphState', z.object({ version: z.number().default(0), prefix: nullable(z.string()) }));

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
    return taken.before ? stateItem.read(taken.before) : { version: 0, prefix: null };
  }

  async renew(accountId: string, memoryId: string, holder: string, untilMs: number): Promise<boolean> {
    try {
      const item = await this.table.update(
        keys.graphState(accountId, memoryId),
        { leaseUntil: untilMs },
        {
          expression: 'holder = :holder',
          names: {},
          values: { ':holder': holder },
        },
      );
      return item !== undefined;
    } catch (error) {
      if (error instanceof ConflictError) return false;
      throw error;
    }
  }

  async release(accountId: string, memoryId: string, holder: string, state: GraphItemsState): Promise<void> {
    await this.table.exchange(
      keys.graphState(accountId, memoryId),
      { ...stateItem.changes(state), leaseUntil: 0 },
      { expression: 'holder = :holder', names: {}, values: { ':holder': holder } },
    );
  }

  async apply(accountId: string, memoryId: string, changes: GraphItemChanges): Promise<void> {
    await this.table.putMany([
      ...changes.putNodes.map((node) => storedNode(accountId, memoryId, node)),
      ...changes.putEdges.map((edge) => itemOf(edgeItem, keys.graphEdge(accountId, memoryId, edge.source, edge.id), edge)),
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
    return { nodes: readAll(nodeItem, nodes), edges: readAll(edgeItem, edges) };
  }

  async pageNodes(accountId: string, memoryId: string, page: PageRequest): Promise<Page<GraphNode>> {
    const partition = keys.graphNodesOf(accountId, memoryId);
    const result = await this.table.queryPage({ index: 'gsi1', partition, scope: `graph|${partition}`, page });
    return { ...result, items: readAll(nodeItem, result.items) };
  }

  async getNodes(accountId: string, memoryId: string, ids: readonly string[]): Promise<GraphNode[]> {
    return readAll(nodeItem, await this.table.getMany(ids.map((id) => keys.graphNode(accountId, memoryId, id))));
  }

  async edgesFrom(accountId: string, memoryId: string, firstSource: string, lastSource: string): Promise<GraphEdge[]> {
    const from = keys.graphEdge(accountId, memoryId, firstSource, '').sk;
    const to = `${keys.graphEdge(accountId, memoryId, lastSource, '').sk}\uffff`;
    return readAll(edgeItem, await this.table.queryBetween(keys.graphPartition(accountId, memoryId), from, to));
  }

  async deleteAll(accountId: string, memoryId: string): Promise<void> {
    const items = await this.table.queryAll(keys.graphPartition(accountId, memoryId));
    await this.table.deleteMany(items.map((item) => ({ pk: String(item.pk), sk: String(item.sk) })));
  }
}

function storedNode(accountId: string, memoryId: string, node: GraphNode): Item & { pk: string; sk: string } {
  const paging = { gsi1pk: keys.graphNodesOf(accountId, memoryId), gsi1sk: node.id };
  return itemOf(nodeItem, { ...keys.graphNode(accountId, memoryId, node.id), ...paging }, node);
}
