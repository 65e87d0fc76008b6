/**
 * What one build changed in a memory's graph, as a delta of the graph snapshot (graph-snapshot.ts): the
 * records of the entities, relations, facts, chunks and files it touched as they are now, and the ids of
 * those it took away. A graph's maps track their inserts and deletes (tracked-map.ts); which records a
 * build touched in place is marked by the build (`markFile`: every id a file's contribution names, before
 * it is removed or replaced and after it is merged) and by the validity pass (`changes.validity`).
 *
 * The stored form and how readers apply it: graph-delta-format.ts.
 */
import type { FileContribution, GraphChunk, GraphEntity, GraphFact, GraphRelation, KnowledgeGraph } from './graph-model';
import type { GraphDelta } from './graph-delta-format';
import { entitySnapshot, fileSnapshot, relationSnapshot } from './graph-snapshot';
import { TrackedMap } from './tracked-map';
import type { ValidityChanges } from './validity-changes';

/** The ids a build touched in place, by kind; `validity` is what the validity pass fills. */
export interface GraphChanges {
  readonly entities: Set<string>;
  readonly relations: Set<string>;
  readonly facts: Set<string>;
  readonly chunks: Set<string>;
  readonly files: Set<string>;
  /** Files whose contribution was removed, replaced or merged (not only their validity changed). */
  readonly contributed: Set<string>;
  readonly validity: ValidityChanges;
}

/** Starts tracking what is done to `graph` from now on (a graph made by createMemoryGraph or restored). */
export function trackGraphChanges(graph: KnowledgeGraph): GraphChanges {
  for (const map of mapsOf(graph)) map.track();
  const changes = { entities: new Set<string>(), relations: new Set<string>(), facts: new Set<string>(), chunks: new Set<string>() };
  const files = new Set<string>();
  return { ...changes, files, contributed: new Set(), validity: { facts: changes.facts, relations: changes.relations, files } };
}

/** Marks everything a file's contribution names as touched (call it before a removal and after a merge). */
export function markFile(changes: GraphChanges, file: FileContribution): void {
  changes.files.add(file.fileId);
  changes.contributed.add(file.fileId);
  for (const id of file.chunkIds) changes.chunks.add(id);
  for (const id of file.factIds) changes.facts.add(id);
  for (const id of file.aliasCounts.keys()) changes.entities.add(id);
  for (const id of file.typeCounts.keys()) changes.entities.add(id);
  for (const id of file.relationCounts.keys()) changes.relations.add(id);
}

/** The delta of what was done to `graph` since `trackGraphChanges`. */
export function graphDelta(graph: KnowledgeGraph, changes: GraphChanges): GraphDelta {
  const [entities, relations, facts, chunks, files] = mapsOf(graph);
  return {
    format: 1,
    removed: {
      entities: [...entities.deleted.keys()],
      relations: [...relations.deleted].map(([id, relation]) => [id, relation.subjectId]),
      facts: [...facts.deleted.keys()],
      chunks: [...chunks.deleted.keys()],
      files: [...files.deleted.keys()],
    },
    contributed: [...changes.contributed],
    entities: touched(entities, changes.entities).map((entity) => supportPatched(entitySnapshot(entity), entities, changes)),
    relations: touched(relations, changes.relations).map((relation) => supportPatched(relationSnapshot(relation), relations, changes)),
    facts: touched(facts, changes.facts).map((fact): GraphFact => ({ ...fact })),
    chunks: touched(chunks, changes.chunks).map(({ id, fileId, index }) => ({ id, fileId, index })),
    files: touched(files, changes.files).map((file) => fileSnapshot(file, graph.chunks)),
  };
}

/**
 * A record the graph held before the build and still holds (not re-inserted) with only the support of the
 * files whose contributions changed: its other entries are the base's (a hub entity's support names every
 * file that mentions it, which no delta should copy).
 */
function supportPatched<R extends { id: string; support: Array<[string, number]> }>(
  record: R,
  map: TrackedMap<string, unknown>,
  changes: GraphChanges,
): R {
  if (map.inserted.has(record.id)) return record;
  return { ...record, support: record.support.filter(([fileId]) => changes.contributed.has(fileId)) };
}

/** The records touched in place and still present, then those inserted, in the order the map holds them. */
function touched<V>(map: TrackedMap<string, V>, ids: ReadonlySet<string>): V[] {
  const records: V[] = [];
  for (const id of ids) {
    const record = map.get(id);
    if (record !== undefined && !map.inserted.has(id)) records.push(record);
  }
  for (const id of map.inserted) {
    const record = map.get(id);
    if (record !== undefined) records.push(record);
  }
  return records;
}

type Maps = [
  TrackedMap<string, GraphEntity>,
  TrackedMap<string, GraphRelation>,
  TrackedMap<string, GraphFact>,
  TrackedMap<string, GraphChunk>,
  TrackedMap<string, FileContribution>,
];

/** The graph's five maps, which createMemoryGraph makes tracked. */
function mapsOf(graph: KnowledgeGraph): Maps {
  const maps = [graph.entities, graph.relations, graph.facts, graph.chunks, graph.files];
  if (!maps.every((map) => map instanceof TrackedMap)) throw new TypeError('graph delta: the graph was not made by createMemoryGraph');
  return maps as unknown as Maps;
}
