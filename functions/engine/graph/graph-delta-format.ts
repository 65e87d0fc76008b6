/**
 * A graph delta as stored (`graph-delta.json`, docs/segments.md), made by graph-delta.ts, and how a reader
 * applies it: `applyGraphDelta` gives the snapshot of the graph after a build from the one before it:
 * deleted ids go, records are set by id (a kept one in place, a new or re-inserted one at the end, in the
 * order the build inserted it), so the composed snapshot restores to a graph that iterates as the built
 * one does. Plain data only: readers (export, graph items) load no NLP.
 */
import type { GraphChunk } from './graph-model';
import type { EntitySnapshot, FileSnapshot, GraphSnapshot, RelationSnapshot, StoredFact } from './graph-snapshot';

/** The snapshot version deltas apply to (graph-snapshot.ts). */
const DELTA_BASE_VERSION = 3;

export interface GraphDelta {
  format: 1;
  /** Ids the graph held before the build and does not hold after it (or holds again: then upserted too). */
  removed: {
    entities: string[];
    /** With the relation's subject (its table item is stored under it). */
    relations: Array<[id: string, subjectId: string]>;
    facts: string[];
    chunks: string[];
    files: string[];
  };
  entities: EntitySnapshot[];
  relations: RelationSnapshot[];
  facts: StoredFact[];
  chunks: GraphChunk[];
  files: FileSnapshot[];
}

/** The snapshot after a build from the snapshot before it (version 3) and the build's delta. */
export function applyGraphDelta(snapshot: GraphSnapshot, delta: GraphDelta): GraphSnapshot {
  if (snapshot.version !== DELTA_BASE_VERSION) throw new RangeError(`graph delta: a version ${snapshot.version} snapshot takes none`);
  if (delta.format !== 1) throw new RangeError(`graph delta: unsupported format ${String(delta.format)}`);
  const { removed } = delta;
  return {
    ...snapshot,
    entities: applied(snapshot.entities, removed.entities, delta.entities, (entity) => entity.id),
    relations: applied(
      snapshot.relations,
      removed.relations.map(([id]) => id),
      delta.relations,
      (relation) => relation.id,
    ),
    facts: applied(snapshot.facts, removed.facts, delta.facts, (fact) => fact.id),
    chunks: applied(snapshot.chunks, removed.chunks, delta.chunks, (chunk) => chunk.id),
    files: applied(snapshot.files, removed.files, delta.files, (file) => file.fileId),
  };
}

function applied<T>(records: readonly T[], removed: readonly string[], upserts: readonly T[], idOf: (record: T) => string): T[] {
  const byId = new Map(records.map((record) => [idOf(record), record]));
  for (const id of removed) byId.delete(id);
  for (const record of upserts) byId.set(idOf(record), record);
  return [...byId.values()];
}
