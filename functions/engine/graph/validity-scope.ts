/**
 * What a sync touched, so the validity pass (validity.ts) recomputes only the groups it could change.
 *
 * A fact or relation's `validTo` depends on its single-valued group (slot and subject, or slot and
 * object) and on its rule, which depends on its object's type. A sync changes only what its files state
 * (their entities, relations, facts, closed facts and speakers' statements) and the types of the entities
 * they mention. So every fact or relation it changes has both ends among the files' entities or the other
 * ends of their facts and relations (`scopeEntities`), and every group whose key entity lies outside that
 * set is as it was. Add each file before it is removed or replaced and again after it is merged.
 */
import type { FileContribution, KnowledgeGraph } from './graph-model';

/** The entities and speakers of the files a sync merged or removed. */
export interface ValidityScope {
  readonly entities: Set<string>;
  readonly speakers: Set<string>;
}

export function emptyValidityScope(): ValidityScope {
  return { entities: new Set(), speakers: new Set() };
}

/** Adds what a file contributes (call before removing it, and after merging it). */
export function addFileToScope(scope: ValidityScope, graph: KnowledgeGraph, file: FileContribution): void {
  for (const entityId of file.aliasCounts.keys()) scope.entities.add(entityId);
  const ends = (item: { subjectId: string; objectId: string } | undefined) => {
    if (!item) return;
    scope.entities.add(item.subjectId);
    scope.entities.add(item.objectId);
  };
  for (const relationId of file.relationCounts.keys()) ends(graph.relations.get(relationId));
  for (const factId of file.factIds) ends(graph.facts.get(factId));
  for (const fact of file.closedFacts) ends(fact);
  for (const statement of file.statements) scope.speakers.add(statement.speaker);
}

/** The touched entities and the other ends of every fact and relation touching one: the group keys to redo. */
export function scopeEntities(graph: KnowledgeGraph, scope: ValidityScope): Set<string> {
  const keys = new Set(scope.entities);
  const widen = (item: { subjectId: string; objectId: string }) => {
    if (!scope.entities.has(item.subjectId) && !scope.entities.has(item.objectId)) return;
    keys.add(item.subjectId);
    keys.add(item.objectId);
  };
  for (const relation of graph.relations.values()) widen(relation);
  for (const fact of graph.facts.values()) widen(fact);
  for (const file of graph.files.values()) for (const fact of file.closedFacts) widen(fact);
  return keys;
}
