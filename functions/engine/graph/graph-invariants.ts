/**
 * Consistency checks of a knowledge graph, for tests and for a worker's sanity checks after a delete:
 * no orphans (every entity, relation and fact has support from a present file), counts that agree
 * with the files' contributions, and references that resolve.
 */
import type { GraphEntity, KnowledgeGraph } from './graph-model';

/** Human-readable violations; empty when the graph is consistent. */
export function graphInvariantViolations(graph: KnowledgeGraph): string[] {
  return [...entityViolations(graph), ...relationViolations(graph), ...factViolations(graph), ...mentionViolations(graph)];
}

function entityViolations(graph: KnowledgeGraph): string[] {
  const expected = expectedEntityCounts(graph);
  const out = [...graph.entities.values()].flatMap((entity) => oneEntityViolations(graph, entity, expected.get(entity.id) ?? 0));
  for (const id of expected.keys()) if (!graph.entities.has(id)) out.push(`mentions of missing entity ${id}`);
  return out;
}

/** What is wrong with one entity, which `mentions` mentions of the files name. */
function oneEntityViolations(graph: KnowledgeGraph, entity: GraphEntity, mentions: number): string[] {
  const out: string[] = [];
  const support = sum(entity.support.values());
  if (support === 0) out.push(`entity ${entity.id} has no support`);
  for (const fileId of entity.support.keys())
    if (!graph.files.has(fileId)) out.push(`entity ${entity.id} supported by missing file ${fileId}`);
  if (entity.aliases.size === 0) out.push(`entity ${entity.id} has no alias`);
  if (sumAliases(entity) !== support) out.push(`entity ${entity.id}: alias counts ${sumAliases(entity)} ≠ support ${support}`);
  if (sum(entity.typeVotes.values()) !== support) out.push(`entity ${entity.id}: type votes ≠ support`);
  if (mentions !== support) out.push(`entity ${entity.id}: ${mentions} mentions ≠ support ${support}`);
  return out;
}

function relationViolations(graph: KnowledgeGraph): string[] {
  const out: string[] = [];
  for (const relation of graph.relations.values()) {
    if (relation.support.size === 0) out.push(`relation ${relation.id} has no support`);
    if (!graph.entities.has(relation.subjectId) || !graph.entities.has(relation.objectId))
      out.push(`relation ${relation.id} has a missing end`);
    for (const [fileId, count] of relation.support) {
      const recorded = graph.files.get(fileId)?.relationCounts.get(relation.id);
      if (recorded !== count) out.push(`relation ${relation.id}: file ${fileId} records ${recorded ?? 0}, support says ${count}`);
    }
  }
  for (const file of graph.files.values()) out.push(...countedMissingRelations(graph, file.fileId, file.relationCounts));
  return out;
}

function countedMissingRelations(graph: KnowledgeGraph, fileId: string, counts: ReadonlyMap<string, number>): string[] {
  return [...counts.keys()].filter((id) => !graph.relations.has(id)).map((id) => `file ${fileId} counts missing relation ${id}`);
}

function factViolations(graph: KnowledgeGraph): string[] {
  const out: string[] = [];
  for (const fact of graph.facts.values()) {
    if (!graph.relations.has(fact.relationId)) out.push(`fact ${fact.id} has no relation`);
    if (graph.chunks.get(fact.chunkId)?.fileId !== fact.fileId) out.push(`fact ${fact.id} has no chunk in file ${fact.fileId}`);
    if (!graph.entities.has(fact.subjectId) || !graph.entities.has(fact.objectId)) out.push(`fact ${fact.id} has a missing end`);
  }
  const listed = [...graph.files.values()].reduce((total, file) => total + file.factIds.length, 0);
  if (listed !== graph.facts.size) out.push(`files list ${listed} facts, graph has ${graph.facts.size}`);
  return out;
}

function mentionViolations(graph: KnowledgeGraph): string[] {
  const out: string[] = [];
  for (const chunk of graph.chunks.values()) if (!graph.files.has(chunk.fileId)) out.push(`chunk ${chunk.id} of missing file`);
  for (const file of graph.files.values()) {
    for (const mention of file.mentions) {
      if (graph.chunks.get(mention.chunkId)?.fileId !== file.fileId) out.push(`mention in missing chunk ${mention.chunkId}`);
    }
  }
  return out;
}

function expectedEntityCounts(graph: KnowledgeGraph): Map<string, number> {
  const counts = new Map<string, number>();
  for (const file of graph.files.values())
    for (const mention of file.mentions) counts.set(mention.entityId, (counts.get(mention.entityId) ?? 0) + 1);
  return counts;
}

function sumAliases(entity: GraphEntity): number {
  let total = 0;
  for (const alias of entity.aliases.values()) total += alias.count;
  return total;
}

function sum(values: Iterable<number>): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}
