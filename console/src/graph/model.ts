/** The graph memory as a graphology graph: every page of up to 5,000 nodes, coloured by type, sized by mentions. */
import Graph from 'graphology';
import type { Api, GraphEdge, GraphNode } from '../api';

export interface NodeAttributes {
  x: number;
  y: number;
  size: number;
  label: string;
  color: string;
  type?: never;
  entityType: string;
  aliases: string[];
}

export interface EdgeAttributes {
  label: string;
  size: number;
}

export type EntityGraph = Graph<NodeAttributes, EdgeAttributes>;

const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#7f7f7f'];

/** One colour per entity type, the same across loads (from the type's name). */
export function colourOf(type: string): string {
  let hash = 0;
  for (const char of type) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return PALETTE[hash % PALETTE.length] ?? '#7f7f7f';
}

/** Fetches the whole graph, page after page (5,000 nodes each), telling how many nodes arrived so far. */
export async function loadGraph(api: Api, memoryID: string, onProgress: (nodes: number) => void): Promise<EntityGraph> {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  let nextToken: string | undefined;
  do {
    const page = await api.graphPage(memoryID, nextToken);
    nodes.push(...page.nodes);
    edges.push(...page.edges);
    onProgress(nodes.length);
    nextToken = page.nextToken ?? undefined;
  } while (nextToken);
  return buildGraph(nodes, edges);
}

function buildGraph(nodes: GraphNode[], edges: GraphEdge[]): EntityGraph {
  const graph: EntityGraph = new Graph({ multi: true, allowSelfLoops: false });
  const spread = Math.sqrt(nodes.length) * 10;
  for (const n of nodes) {
    if (graph.hasNode(n.id)) continue;
    graph.addNode(n.id, {
      x: (Math.random() - 0.5) * spread,
      y: (Math.random() - 0.5) * spread,
      size: 3 + Math.min(12, Math.log2(1 + n.mentions) * 2),
      label: n.name,
      color: colourOf(n.type),
      entityType: n.type,
      aliases: n.aliases,
    });
  }
  for (const e of edges) {
    if (e.source === e.target || !graph.hasNode(e.source) || !graph.hasNode(e.target) || graph.hasEdge(e.id)) continue;
    graph.addEdgeWithKey(e.id, e.source, e.target, { label: e.predicate, size: 1 });
  }
  return graph;
}

/** Entity types with how many nodes each has, most first (the legend). */
export function typesOf(graph: EntityGraph): [string, number][] {
  const counts = new Map<string, number>();
  graph.forEachNode((_, a) => counts.set(a.entityType, (counts.get(a.entityType) ?? 0) + 1));
  return [...counts].sort((a, b) => b[1] - a[1]);
}
