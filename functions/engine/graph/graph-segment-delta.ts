/**
 * What one build changed in the segment retrieval walks, as a delta of its source (graph-segment-source.ts),
 * stored beside the graph delta (`graph-seg-delta.json`, docs/segments.md): the records of the entities,
 * relations, facts, chunks and files the graph delta names (graph-delta.ts), as the segment shows them
 * after the build, and the ids taken away. `applySegmentDelta` sets and takes them away by id as
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

/** The source after a build from the source before it and the build's segment delta (a new source: `source` is kept as it is). */
export function applySegmentDelta(source: SegmentSource, delta: GraphSegmentDelta): SegmentSource {
  if (delta.format !== 1) throw new RangeError(`graph segment delta: unsupported format ${String(delta.format)}`);
  const { removed } = delta;
  return {
    entities: applied(
      source.entities,
      removed.entities,
      delta.entities.map(([id, name, type, aliases]) => ({ id, name, type, aliases })),
      (entity) => entity.id,
    ),
    relations: applied(
      source.relations,
      removed.relations,
      delta.relations.map(([id, subjectId, objectId, weight]) => ({ id, subjectId, objectId, weight })),
      (relation) => relation.id,
    ),
    facts: applied(source.facts, removed.facts, delta.facts, (fact) => fact.id),
    chunks: appliedChunks(source.chunks, removed.chunks, delta.chunks),
    files: applied(source.files, removed.files, delta.files.map(fileOfDelta), (file) => file.fileId),
  };
}

function fileOfDelta(file: GraphSegmentDelta['files'][number]): SourceFile {
  const { fileId, mentions, closedFacts, speakers, statementKinds, statementRows } = file;
  return { fileId, mentions, closedFacts, statements: statementsOfTable({ speakers, statementKinds, statementRows }) };
}

/** `records` without the `removed` ids, with `upserts` set by id (a kept one in place, a new one at the end). */
function applied<T>(
  records: ReadonlyMap<string, T>,
  removed: readonly string[],
  upserts: readonly T[],
  idOf: (record: T) => string,
): Map<string, T> {
  const out = new Map(records);
  for (const id of removed) out.delete(id);
  for (const record of upserts) out.set(idOf(record), record);
  return out;
}

/** Chunk id → file id, as `applied`. */
function appliedChunks(
  chunks: ReadonlyMap<string, string>,
  removed: readonly string[],
  upserts: ReadonlyArray<[string, string]>,
): Map<string, string> {
  const out = new Map(chunks);
  for (const id of removed) out.delete(id);
  for (const [id, fileId] of upserts) out.set(id, fileId);
  return out;
}
