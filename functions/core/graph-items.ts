/**
 * The table form of a graph memory's knowledge graph: one item per entity (node) and per relation (edge),
 * what GET /memories/graph/{id} pages through without loading the graph. The worker keeps the items equal
 * to the published graph by writing only what changed between two versions (graph-items-sync.ts).
 */
import type { GraphDelta, GraphSnapshot } from '../engine';

export interface GraphNode {
  id: string;
  name: string;
  type: string;
  aliases: string[];
  mentions: number;
  /** Files whose text supports the entity. */
  support: number;
}

export interface GraphEdge {
  id: string;
  /** The subject entity; edges are stored and listed under it. */
  source: string;
  target: string;
  predicate: string;
  kind: string;
  /** Times the relation was found. */
  weight: number;
  support: number;
  /** When it was first stated, and when a later statement replaced it (null: still holds); absent on older items. */
  validFrom?: string;
  validTo?: string | null;
}

export interface GraphItems {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export interface GraphItemChanges {
  putNodes: GraphNode[];
  putEdges: GraphEdge[];
  removeNodes: string[];
  removeEdges: Array<Pick<GraphEdge, 'id' | 'source'>>;
}

/** Which version of the graph the items hold; `prefix` null: unknown (read the items to compare). */
export interface GraphItemsState {
  version: number;
  prefix: string | null;
}

const total = (pairs: ReadonlyArray<readonly [string, number]>): number => pairs.reduce((sum, [, n]) => sum + n, 0);

/** The items of a stored graph (none for no graph). */
export function graphItemsOf(snapshot: GraphSnapshot | undefined): GraphItems {
  return snapshot ? itemsOf(snapshot) : { nodes: [], edges: [] };
}

/** The items of some entities and relations of a graph (a snapshot's, or a delta's). */
function itemsOf({ entities, relations }: Pick<GraphSnapshot, 'entities' | 'relations'>): GraphItems {
  return {
    nodes: entities.map((entity) => ({
      id: entity.id,
      name: entity.name,
      type: entity.type,
      aliases: [...new Set(entity.aliases.map(([, surface]) => surface))],
      mentions: entity.aliases.reduce((sum, [, , mentions]) => sum + mentions, 0),
      support: entity.support.length,
    })),
    edges: relations.map((relation) => ({
      id: relation.id,
      source: relation.subjectId,
      target: relation.objectId,
      predicate: relation.predicate,
      kind: relation.kind,
      weight: total(relation.support),
      support: relation.support.length,
      ...(relation.validFrom ? { validFrom: relation.validFrom, validTo: relation.validTo ?? null } : {}),
    })),
  };
}

/**
 * What a build's graph delta changes in the items: its touched entities and relations put again (`touched`:
 * their whole records, as a delta carries a kept one's support in part), and those it took away (and did
 * not add back) deleted.
 */
export function graphItemChangesOf(delta: GraphDelta, touched: Pick<GraphSnapshot, 'entities' | 'relations'>): GraphItemChanges {
  const { nodes, edges } = itemsOf(touched);
  const kept = new Set(nodes.map((node) => node.id));
  const keptEdges = new Set(edges.map(edgeKey));
  const removeEdges = delta.removed.relations.map(([id, source]) => ({ id, source }));
  return {
    putNodes: nodes,
    putEdges: edges,
    removeNodes: delta.removed.entities.filter((id) => !kept.has(id)),
    removeEdges: removeEdges.filter((edge) => !keptEdges.has(edgeKey(edge))),
  };
}

/** An edge is stored under its source, so both name it. */
const edgeKey = (edge: Pick<GraphEdge, 'id' | 'source'>): string => `${edge.source}#${edge.id}`;

/** What turns the items `before` into `after`: changed or new items to write, gone ones to delete. */
export function diffGraphItems(before: GraphItems, after: GraphItems): GraphItemChanges {
  const oldNodes = new Map(before.nodes.map((node) => [node.id, JSON.stringify(node)]));
  const oldEdges = new Map(before.edges.map((edge) => [edgeKey(edge), JSON.stringify(edge)]));
  const newNodeIds = new Set(after.nodes.map((node) => node.id));
  const newEdgeKeys = new Set(after.edges.map(edgeKey));
  return {
    putNodes: after.nodes.filter((node) => oldNodes.get(node.id) !== JSON.stringify(node)),
    putEdges: after.edges.filter((edge) => oldEdges.get(edgeKey(edge)) !== JSON.stringify(edge)),
    removeNodes: before.nodes.filter((node) => !newNodeIds.has(node.id)).map((node) => node.id),
    removeEdges: before.edges.filter((edge) => !newEdgeKeys.has(edgeKey(edge))).map(({ id, source }) => ({ id, source })),
  };
}
