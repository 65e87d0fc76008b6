/**
 * What one build changed in the segment retrieval walks, as a delta of its source (graph-segment-source.ts),
 * stored beside the graph delta (`graph-seg-delta.json`, docs/segments.md): the records of the entities,
 * relations, facts, chunks and files the graph delta names (graph-delta.ts), as the segment shows them
 * after the build, and the ids taken away. `applySegmentDeltas` sets and takes them away by id as
 * `applyGraphDelta` does (a kept record in place, a new or re-inserted one at the end), so a base's source
 * with its chain's deltas applied is the source of the graph the last build held: the same segment.
 * Plain data only: query containers load no NLP.
 */
import type { GraphDelta } from './graph-delta-format';
import type { KnowledgeGraph } from './graph-model';
import type { ClosedFactRecord } from './graph-segment';
import { type SegmentStatementTable, statementsOfTable, statementTable } from './graph-segment-statements';
import {
  type SegmentSource,
  type SourceFact,
  type SourceFile,
  sourceEntity,
  sourceFact,
  sourceFile,
  sourceRelation,
} from './graph-segment-source';

export interface GraphSegmentDelta {
  format: 1;
  removed: { entities: string[]; relations: string[]; facts: string[]; chunks: string[]; files: string[] };
  entities: Array<[id: string, name: string, type: string, aliases: string[]]>;
  relations: Array<[id: string, subjectId: string, objectId: string, weight: number]>;
  facts: SourceFact[];
  chunks: Array<[id: string, fileId: string]>;
  files: Array<
    {
      fileId: string;
      mentions: Array<[entityId: string, chunkId: string, count: number]>;
      closedFacts: ClosedFactRecord[];
    } & SegmentStatementTable
  >;
}

/** The segment delta of a build whose graph delta is `delta`, read from `graph` after the build. */
export function graphSegmentDelta(graph: KnowledgeGraph, delta: GraphDelta): GraphSegmentDelta {
  const present = <T>(records: ReadonlyArray<T | undefined>): T[] => records.filter((record): record is T => record !== undefined);
  return {
    format: 1,
    removed: { ...delta.removed, relations: delta.removed.relations.map(([id]) => id) },
    entities: present(delta.entities.map(({ id }) => sourceEntity(graph, id))).map(({ id, name, type, aliases }) => [
      id,
      name,
      type,
      [...aliases],
    ]),
    relations: present(delta.relations.map(({ id }) => sourceRelation(graph, id))).map(({ id, subjectId, objectId, weight }) => [
      id,
      subjectId,
      objectId,
      weight,
    ]),
    facts: present(delta.facts.map(({ id }) => graph.facts.get(id))).map(sourceFact),
    chunks: delta.chunks.map(({ id, fileId }) => [id, fileId]),
    files: present(delta.files.map(({ fileId }) => sourceFile(graph, fileId))).map(({ fileId, mentions, closedFacts, statements }) => ({
      fileId,
      mentions: mentions.map(([entityId, chunkId, count]) => [entityId, chunkId, count]),
      closedFacts: [...closedFacts],
      ...statementTable(statements),
    })),
  };
}

/**
 * The source after builds from `source` and their segment deltas, in order (a new source: `source` is kept
 * as it is; its maps are copied once, whatever the number of deltas).
 */
export function applySegmentDeltas(source: SegmentSource, deltas: readonly GraphSegmentDelta[]): SegmentSource {
  const out = {
    entities: new Map(source.entities),
    relations: new Map(source.relations),
    facts: new Map(source.facts),
    chunks: new Map(source.chunks),
    files: new Map(source.files),
  };
  for (const delta of deltas) applyInPlace(out, delta);
  return out;
}

type MutableSource = { [K in keyof SegmentSource]: SegmentSource[K] extends ReadonlyMap<string, infer V> ? Map<string, V> : never };

/** Takes away the delta's removed ids, then sets its records by id (a kept one in place, a new one at the end). */
function applyInPlace(source: MutableSource, delta: GraphSegmentDelta): void {
  if (delta.format !== 1) throw new RangeError(`graph segment delta: unsupported format ${String(delta.format)}`);
  const { removed } = delta;
  for (const id of removed.entities) source.entities.delete(id);
  for (const id of removed.relations) source.relations.delete(id);
  for (const id of removed.facts) source.facts.delete(id);
  for (const id of removed.chunks) source.chunks.delete(id);
  for (const id of removed.files) source.files.delete(id);
  for (const [id, name, type, aliases] of delta.entities) source.entities.set(id, { id, name, type, aliases });
  for (const [id, subjectId, objectId, weight] of delta.relations) source.relations.set(id, { id, subjectId, objectId, weight });
  for (const fact of delta.facts) source.facts.set(fact.id, fact);
  for (const [id, fileId] of delta.chunks) source.chunks.set(id, fileId);
  for (const file of delta.files) source.files.set(file.fileId, fileOfDelta(file));
}

function fileOfDelta(file: GraphSegmentDelta['files'][number]): SourceFile {
  const { fileId, mentions, closedFacts, speakers, statementKinds, statementRows } = file;
  return { fileId, mentions, closedFacts, statements: statementsOfTable({ speakers, statementKinds, statementRows }) };
}
