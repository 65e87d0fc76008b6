/**
 * GET /memories/graph/{id}: a graph memory's knowledge graph, a page of nodes at a time (entities in the
 * order they entered the graph) with the edges that start at them, so every edge is listed exactly once
 * across the pages. Tokens are bound to the memory's index version: after a new ingestion, start again.
 */
import { BadRequestError } from '../errors';
import type { GraphSnapshot } from '../graph/graph-snapshot';
import { parseGraphState } from '../ingest/graph-state';
import { INDEX_FILES } from '../ingest/index-files';
import type { PageRequest } from '../model';
import type { MemoryStore, ObjectStore, OffsetTokens } from '../ports';
import { getMemory } from './memories';

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
  source: string;
  target: string;
  predicate: string;
  kind: string;
  /** Times the relation was found. */
  weight: number;
  support: number;
}

export interface GraphPage {
  nodes: GraphNode[];
  edges: GraphEdge[];
  nextToken: string | null;
  previousToken: string | null;
}

export interface GraphViewDeps {
  memories: MemoryStore;
  objects: ObjectStore;
  tokens: OffsetTokens;
}

export async function viewMemoryGraph(deps: GraphViewDeps, accountId: string, id: string, page: PageRequest): Promise<GraphPage> {
  const memory = await getMemory(deps, accountId, id);
  if (memory.memoryType !== 'graph') throw BadRequestError.forField('id', `memory '${id}' is a vector memory; it has no graph`);
  const snapshot = memory.indexPrefix ? parseGraphState(await deps.objects.get(memory.indexPrefix + INDEX_FILES.state)) : undefined;
  const scope = `graph|${accountId}|${id}|v${memory.indexVersion}`;
  const start = await startOf(deps.tokens, scope, page);
  const entities = snapshot?.entities ?? [];
  const slice = entities.slice(start, start + page.limit);
  const nodes = slice.map(toNode);
  const onPage = new Set(nodes.map((node) => node.id));
  const edges = (snapshot?.relations ?? []).filter((relation) => onPage.has(relation.subjectId)).map(toEdge);
  const end = start + slice.length;
  return {
    nodes,
    edges,
    nextToken: end < entities.length ? await deps.tokens.sealOffset(scope, 'next', end) : null,
    previousToken: start > 0 ? await deps.tokens.sealOffset(scope, 'previous', Math.max(0, start - page.limit)) : null,
  };
}

async function startOf(tokens: OffsetTokens, scope: string, page: PageRequest): Promise<number> {
  if (page.nextToken && page.previousToken) throw BadRequestError.forField('nextToken', 'cannot be combined with previousToken');
  if (page.nextToken) return tokens.openOffset('nextToken', page.nextToken, scope, 'next');
  if (page.previousToken) return tokens.openOffset('previousToken', page.previousToken, scope, 'previous');
  return 0;
}

const total = (pairs: ReadonlyArray<readonly [string, number]>): number => pairs.reduce((sum, [, n]) => sum + n, 0);

function toNode(entity: GraphSnapshot['entities'][number]): GraphNode {
  return {
    id: entity.id,
    name: entity.name,
    type: entity.type,
    aliases: [...new Set(entity.aliases.map(([, surface]) => surface))],
    mentions: entity.aliases.reduce((sum, [, , mentions]) => sum + mentions, 0),
    support: entity.support.length,
  };
}

function toEdge(relation: GraphSnapshot['relations'][number]): GraphEdge {
  return {
    id: relation.id,
    source: relation.subjectId,
    target: relation.objectId,
    predicate: relation.predicate,
    kind: relation.kind,
    weight: total(relation.support),
    support: relation.support.length,
  };
}
