/**
 * Records a file's relation candidates as graph relations (one per subject, predicate, object and
 * kind; co-occurrence links undirected) and facts (one per relation, chunk and sentence), counting
 * them in the file's contribution.
 */
import type { FileExtraction } from './graph-build';
import { addCount, stableId, type FileContribution, type GraphRelation, type KnowledgeGraph } from './graph-model';
import type { RelationCandidate } from './relations';

/** Adds the file's relations and facts; returns how many occurrences of each it recorded. */
export function recordRelations(
  graph: KnowledgeGraph,
  extraction: FileExtraction,
  entityIds: readonly (readonly string[])[],
  contribution: FileContribution,
): { relations: number; facts: number } {
  let relations = 0;
  let facts = 0;
  extraction.chunks.forEach((chunk, chunkIndex) => {
    const ids = entityIds[chunkIndex] ?? [];
    const source = graph.chunks.get(chunk.chunkId);
    const stated = {
      chunkId: chunk.chunkId,
      fileId: extraction.fileId,
      time: source?.time ?? '',
      sourceId: source?.sourceId ?? extraction.fileId,
    };
    for (const candidate of chunk.relations) {
      const relation = upsertRelation(graph, candidate, ids[candidate.subject] ?? '', ids[candidate.object] ?? '', extraction.fileId);
      if (relation === undefined) continue;
      relations++;
      addCount(contribution.relationCounts, relation.id, 1);
      noteTime(contribution.relationTimes, relation, stated.time);
      if (recordFact(graph, relation, candidate, stated, contribution)) facts++;
    }
  });
  return { relations, facts };
}

/** Adds the candidate's fact (one per relation, chunk and sentence); false when it is there already. */
function recordFact(
  graph: KnowledgeGraph,
  relation: GraphRelation,
  candidate: RelationCandidate,
  stated: { chunkId: string; fileId: string; time: string; sourceId: string },
  contribution: FileContribution,
): boolean {
  const factId = stableId('f', `${relation.id}\u0000${stated.chunkId}\u0000${candidate.sentence}`);
  if (graph.facts.has(factId) || candidate.fact === undefined) return false;
  graph.facts.set(factId, {
    id: factId,
    kind: candidate.fact.kind,
    relationId: relation.id,
    subjectId: relation.subjectId,
    predicate: relation.predicate,
    objectId: relation.objectId,
    text: candidate.fact.text,
    chunkId: stated.chunkId,
    fileId: stated.fileId,
    sentence: candidate.sentence,
    validFrom: stated.time,
    validTo: null,
    sourceId: stated.sourceId,
  });
  contribution.factIds.push(factId);
  return true;
}

/**
 * Widens the [first, last] times a file states a relation to take in `time`. Co-occurrence links are never
 * single-valued: their times are not kept (the graph state stays small).
 */
function noteTime(times: Map<string, [string, string]>, relation: GraphRelation, time: string): void {
  if (relation.kind !== 'svo') return;
  const span = times.get(relation.id);
  if (!span) times.set(relation.id, [time, time]);
  else if (time < span[0]) span[0] = time;
  else if (time > span[1]) span[1] = time;
}

function upsertRelation(
  graph: KnowledgeGraph,
  candidate: RelationCandidate,
  subjectId: string,
  objectId: string,
  fileId: string,
): GraphRelation | undefined {
  if (subjectId === '' || objectId === '' || subjectId === objectId) return undefined;
  const [from, to] = candidate.kind === 'cooccurrence' && objectId < subjectId ? [objectId, subjectId] : [subjectId, objectId];
  const id = stableId('r', `${candidate.kind}\u0000${from}\u0000${candidate.predicate}\u0000${to}`);
  let relation = graph.relations.get(id);
  if (relation === undefined) {
    relation = { id, kind: candidate.kind, subjectId: from, predicate: candidate.predicate, objectId: to, support: new Map() };
    graph.relations.set(id, relation);
  }
  addCount(relation.support, fileId, 1);
  return relation;
}
