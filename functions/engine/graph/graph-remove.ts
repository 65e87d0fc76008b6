/**
 * Removing a file from a memory's graph: subtracts exactly what the file contributed (see
 * `graph-model.ts`). Its chunks, mentions and facts go; an entity or relation goes when no other file
 * supports it; a surviving entity is renamed from its remaining aliases and re-indexed for resolution.
 */
import type { MemoryGraph } from './graph-build';
import { addCount, refreshEntity } from './graph-model';

/** What removing a file took away. */
export interface RemovalSummary {
  readonly fileId: string;
  readonly chunks: number;
  readonly entities: number;
  readonly relations: number;
  readonly facts: number;
}

/** Subtracts a file's contribution; entities and relations no other file supports go. */
export function removeFile(memory: MemoryGraph, fileId: string): RemovalSummary {
  const { graph } = memory;
  const contribution = graph.files.get(fileId);
  if (contribution === undefined) return { fileId, chunks: 0, entities: 0, relations: 0, facts: 0 };
  let entities = 0;
  let relations = 0;
  for (const factId of contribution.factIds) graph.facts.delete(factId);
  for (const [relationId, count] of contribution.relationCounts) {
    const relation = graph.relations.get(relationId);
    if (relation === undefined) continue;
    addCount(relation.support, fileId, -count);
    if (relation.support.size === 0 && graph.relations.delete(relationId)) relations++;
  }
  for (const [entityId, aliases] of contribution.aliasCounts) {
    if (subtractEntity(memory, entityId, fileId, aliases, contribution.typeCounts.get(entityId))) entities++;
  }
  for (const chunkId of contribution.chunkIds) graph.chunks.delete(chunkId);
  graph.files.delete(fileId);
  return { fileId, chunks: contribution.chunkIds.length, entities, relations, facts: contribution.factIds.length };
}

/** Takes a file's mentions off an entity; true when the entity is gone. */
function subtractEntity(
  memory: MemoryGraph,
  entityId: string,
  fileId: string,
  aliases: Map<string, number>,
  types: Map<string, number> | undefined,
): boolean {
  const entity = memory.graph.entities.get(entityId);
  if (entity === undefined) return false;
  for (const [key, count] of aliases) {
    const alias = entity.aliases.get(key);
    if (alias === undefined) continue;
    alias.count -= count;
    if (alias.count <= 0) entity.aliases.delete(key);
  }
  for (const [type, count] of types ?? []) addCount(entity.typeVotes, type, -count);
  entity.support.delete(fileId);
  if (entity.support.size === 0) {
    memory.graph.entities.delete(entityId);
    memory.resolver.index.remove(entityId);
    return true;
  }
  refreshEntity(entity, memory.graph.schema);
  memory.resolver.index.add(entity);
  return false;
}
