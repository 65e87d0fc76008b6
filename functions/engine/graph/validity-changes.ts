/**
 * What a validity pass (validity.ts) changed, so a build writes those items again and nothing else
 * (graph-delta.ts): each redone item's validity is noted before the pass and compared after it.
 */
import type { GraphFact, GraphRelation, KnowledgeGraph, SpeakerStatement } from './graph-model';

/** What a validity pass changed: facts and relations by id, and files whose closed facts or statements changed. */
export interface ValidityChanges {
  readonly facts: Set<string>;
  readonly relations: Set<string>;
  readonly files: Set<string>;
}

interface Redone {
  facts: readonly GraphFact[];
  relations: readonly GraphRelation[];
  statements: readonly SpeakerStatement[];
}

/** The validity of each item, in order (facts, relations, statements), to compare before and after a pass. */
export function validityOf(
  facts: readonly GraphFact[],
  relations: readonly GraphRelation[],
  statements: readonly SpeakerStatement[],
): string[] {
  const values: string[] = [];
  for (const fact of facts) values.push(`${fact.validFrom}|${fact.validTo}`);
  for (const relation of relations) values.push(`${relation.validFrom}|${relation.validTo}`);
  for (const statement of statements) values.push(`${statement.validTo}`);
  return values;
}

export function recordChanges(graph: KnowledgeGraph, changed: ValidityChanges, before: string[], after: string[], redone: Redone): void {
  const { facts, relations, statements } = redone;
  facts.forEach((fact, i) => {
    if (before[i] === after[i]) return;
    if (graph.facts.get(fact.id) === fact) changed.facts.add(fact.id);
    else changed.files.add(fact.fileId); // a closed fact: kept in its file
  });
  relations.forEach((relation, i) => {
    if (before[facts.length + i] !== after[facts.length + i]) changed.relations.add(relation.id);
  });
  const offset = facts.length + relations.length;
  statements.forEach((statement, i) => {
    const fileId = graph.chunks.get(statement.chunkId)?.fileId;
    if (before[offset + i] !== after[offset + i] && fileId !== undefined) changed.files.add(fileId);
  });
}
