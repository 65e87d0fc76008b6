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
  /**
   * Files whose contribution the build removed, replaced or merged. An entity or relation the graph held
   * before and still holds carries in `support` only these files' entries: the rest are the base's.
   */
  contributed: string[];
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
  const contributed = new Set(delta.contributed);
  return {
    ...snapshot,
    entities: applied(snapshot.entities, removed.entities, delta.entities, (entity) => entity.id, withSupport(contributed)),
    relations: applied(
      snapshot.relations,
      removed.relations.map(([id]) => id),
      delta.relations,
      (relation) => relation.id,
      withSupport(contributed),
    ),
    facts: applied(snapshot.facts, removed.facts, delta.facts, (fact) => fact.id),
    chunks: applied(snapshot.chunks, removed.chunks, delta.chunks, (chunk) => chunk.id),
    files: applied(snapshot.files, removed.files, delta.files, (file) => file.fileId),
  };
}

function applied<T>(
  records: readonly T[],
  removed: readonly string[],
  upserts: readonly T[],
  idOf: (record: T) => string,
  update: (before: T, after: T) => T = (_, after) => after,
): T[] {
  const byId = new Map(records.map((record) => [idOf(record), record]));
  for (const id of removed) byId.delete(id);
  for (const record of upserts) {
    const before = byId.get(idOf(record));
    byId.set(idOf(record), before === undefined ? record : update(before, record));
  }
  return [...byId.values()];
}

/** A kept record's support: the base's entries of files the build did not contribute, then the delta's, as the build's map iterates them. */
const withSupport =
  (contributed: ReadonlySet<string>) =>
  <R extends { support: Array<[string, number]> }>(before: R, after: R): R => ({
    ...after,
    support: [...before.support.filter(([fileId]) => !contributed.has(fileId)), ...after.support],
  });
