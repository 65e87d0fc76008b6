/**
 * A plain-JSON form of a memory's graph, for storage between runs (table items per entity, relation,
 * fact and file, or one document) and for restoring it to take more files. Maps become arrays of
 * pairs; the resolver's indexes are rebuilt on restore.
 *
 * Version 2 added validity: chunk times and sources, fact `validFrom`/`validTo`/`sourceId`, relation
 * validity, per-file relation times, closed facts and speaker statements. Version 1 snapshots still
 * restore: their facts take `validFrom` '' (unknown: readers show the source's time) and `validTo` null.
 * Version 3 stores the same graph smaller, as it is written at every sync: chunk times and sources and
 * speaker statements as per-file rows (graph-snapshot-rows.ts), and no validity on a relation that has no time and holds. `portableGraphSnapshot` gives any
 * version's graph in the version 2 shape, the one export archives carry.
 */
import { createMemoryGraph, type GraphSettings, type MemoryGraph } from './graph-build';
import type { MentionKind } from './entity-match';
import type {
  FileContribution,
  GraphChunk,
  GraphEntity,
  GraphFact,
  GraphMention,
  GraphRelation,
  KnowledgeGraph,
  RelationKind,
  SpeakerStatement,
} from './graph-model';
import type { OntologyName } from './ontology';
import { type ChunkOriginRow, chunkOriginRow, type StatementRow, statementRows, statementsOfRows, withOrigin } from './graph-snapshot-rows';

const GRAPH_SNAPSHOT_VERSION = 3;
/** The version export archives carry (docs/export-format.md): statements and chunk origins written out. */
const PORTABLE_VERSION = 2;
/** Versions `restoreMemoryGraph` reads. */
const READABLE_VERSIONS: readonly number[] = [1, PORTABLE_VERSION, GRAPH_SNAPSHOT_VERSION];

type Pairs<V> = Array<[string, V]>;

export interface EntitySnapshot {
  id: string;
  kind: MentionKind;
  name: string;
  key: string;
  type: string;
  /** [alias key, surface, mentions, acronym-shaped]. */
  aliases: Array<[string, string, number, boolean]>;
  typeVotes: Pairs<number>;
  support: Pairs<number>;
}

export interface RelationSnapshot {
  id: string;
  kind: RelationKind;
  subjectId: string;
  predicate: string;
  objectId: string;
  support: Pairs<number>;
  /** Version 2 on. */
  validFrom?: string;
  validTo?: string | null;
}

export interface FileSnapshot {
  fileId: string;
  chunkIds: string[];
  mentions: GraphMention[];
  aliasCounts: Pairs<Pairs<number>>;
  typeCounts: Pairs<Pairs<number>>;
  relationCounts: Pairs<number>;
  factIds: string[];
  /** Version 2 on. */
  relationTimes?: Pairs<[string, string]>;
  closedFacts?: GraphFact[];
  statements?: SpeakerStatement[];
  /** Version 3: the time and source of each chunk of `chunkIds` (version 2: on `GraphSnapshot.chunks`). */
  chunkOrigins?: ChunkOriginRow[];
  /** Version 3: `statements` as rows. */
  statementRows?: StatementRow[];
}

/** A version 1 fact: no validity. */
export type StoredFact = Omit<GraphFact, 'validFrom' | 'validTo' | 'sourceId'> &
  Partial<Pick<GraphFact, 'validFrom' | 'validTo' | 'sourceId'>>;

export interface GraphSnapshot {
  version: 1 | typeof PORTABLE_VERSION | typeof GRAPH_SNAPSHOT_VERSION;
  ontology: OntologyName;
  entities: EntitySnapshot[];
  relations: RelationSnapshot[];
  facts: StoredFact[];
  chunks: GraphChunk[];
  files: FileSnapshot[];
}

/** The graph as plain JSON-ready data. */
export function snapshotGraph(graph: KnowledgeGraph): GraphSnapshot {
  return {
    version: GRAPH_SNAPSHOT_VERSION,
    ontology: graph.schema.name,
    entities: [...graph.entities.values()].map(entitySnapshot),
    relations: [...graph.relations.values()].map(relationSnapshot),
    facts: [...graph.facts.values()].map((fact) => ({ ...fact })),
    chunks: [...graph.chunks.values()].map(({ id, fileId, index }) => ({ id, fileId, index })),
    files: [...graph.files.values()].map((file) => fileSnapshot(file, graph.chunks)),
  };
}

/** Any version's snapshot in the version 2 shape (export archives): chunk origins and statements written out. */
export function portableGraphSnapshot(snapshot: GraphSnapshot): GraphSnapshot {
  if (snapshot.version !== GRAPH_SNAPSHOT_VERSION) return snapshot;
  const origins = originRows(snapshot);
  const chunks = new Map(snapshot.chunks.map((chunk) => [chunk.id, withOrigin(chunk, origins.get(chunk.id))]));
  return {
    ...snapshot,
    version: PORTABLE_VERSION,
    chunks: [...chunks.values()],
    files: snapshot.files.map(({ chunkOrigins: _origins, statementRows: rows, ...file }) => ({
      ...file,
      statements: rows ? statementsOfRows(rows, (id) => chunks.get(id)) : (file.statements ?? []),
    })),
  };
}

/** Chunk id → its origin row (version 3). */
function originRows(snapshot: GraphSnapshot): Map<string, ChunkOriginRow> {
  const rows = new Map<string, ChunkOriginRow>();
  for (const file of snapshot.files) {
    const origins = file.chunkOrigins ?? [];
    file.chunkIds.forEach((id, i) => {
      const row = origins[i];
      if (row) rows.set(id, row);
    });
  }
  return rows;
}

/** A relation; no validity when it has no time and holds (a co-occurrence link: readers take '' and none alike). */
export function relationSnapshot(relation: GraphRelation): RelationSnapshot {
  const { id, kind, subjectId, predicate, objectId, validFrom, validTo } = relation;
  const support = [...relation.support];
  if (!validFrom && (validTo ?? null) === null) return { id, kind, subjectId, predicate, objectId, support };
  return { id, kind, subjectId, predicate, objectId, support, validFrom: validFrom ?? '', validTo: validTo ?? null };
}

export function entitySnapshot(entity: GraphEntity): EntitySnapshot {
  return {
    id: entity.id,
    kind: entity.kind,
    name: entity.name,
    key: entity.key,
    type: entity.type,
    aliases: [...entity.aliases].map(([key, alias]) => [key, alias.surface, alias.count, alias.acronymShaped]),
    typeVotes: [...entity.typeVotes],
    support: [...entity.support],
  };
}

export function fileSnapshot(file: FileContribution, chunks: ReadonlyMap<string, GraphChunk>): FileSnapshot {
  const nested = (map: Map<string, Map<string, number>>): Pairs<Pairs<number>> => [...map].map(([id, inner]) => [id, [...inner]]);
  return {
    fileId: file.fileId,
    chunkIds: [...file.chunkIds],
    mentions: file.mentions.map((mention) => ({ ...mention })),
    aliasCounts: nested(file.aliasCounts),
    typeCounts: nested(file.typeCounts),
    relationCounts: [...file.relationCounts],
    factIds: [...file.factIds],
    relationTimes: [...file.relationTimes].map(([id, [first, last]]) => [id, [first, last]]),
    closedFacts: file.closedFacts.map((fact) => ({ ...fact })),
    ...originsOf(file, chunks),
    ...(file.statements.length > 0 ? { statementRows: statementRows(file.statements, (id) => chunks.get(id)) } : {}),
  };
}

/** A file's chunk origin rows, when any of its chunks has a time or a source. */
function originsOf(file: FileContribution, chunks: ReadonlyMap<string, GraphChunk>): Pick<FileSnapshot, 'chunkOrigins'> {
  const rows = file.chunkIds.map((id) => chunkOriginRow(chunks.get(id) ?? { id, fileId: file.fileId, index: 0 }));
  return rows.some(([time, source]) => time !== null || source !== null) ? { chunkOrigins: rows } : {};
}

/** A memory graph holding `snapshot`, ready for more files (the ontology comes from the snapshot). */
export function restoreMemoryGraph(snapshot: GraphSnapshot, settings: Omit<GraphSettings, 'ontology'>): MemoryGraph {
  if (!READABLE_VERSIONS.includes(snapshot.version))
    throw new RangeError(`graph snapshot: unsupported version ${String(snapshot.version)}`);
  const memory = createMemoryGraph({ ...settings, ontology: snapshot.ontology });
  const { graph } = memory;
  for (const entity of snapshot.entities) {
    const restored: GraphEntity = {
      ...entity,
      aliases: new Map(entity.aliases.map(([key, surface, count, acronymShaped]) => [key, { surface, count, acronymShaped }])),
      typeVotes: new Map(entity.typeVotes),
      support: new Map(entity.support),
    };
    graph.entities.set(entity.id, restored);
    memory.resolver.index.add(restored);
  }
  for (const relation of snapshot.relations)
    graph.relations.set(relation.id, { ...relation, support: new Map(relation.support) } satisfies GraphRelation);
  for (const fact of snapshot.facts) graph.facts.set(fact.id, withValidity(fact));
  restoreChunks(graph, snapshot);
  for (const { chunkOrigins: _origins, statementRows: rows, statements, ...file } of snapshot.files) {
    const nested = (pairs: Pairs<Pairs<number>>): Map<string, Map<string, number>> =>
      new Map(pairs.map(([id, inner]) => [id, new Map(inner)]));
    graph.files.set(file.fileId, {
      ...file,
      aliasCounts: nested(file.aliasCounts),
      typeCounts: nested(file.typeCounts),
      relationCounts: new Map(file.relationCounts),
      relationTimes: new Map((file.relationTimes ?? []).map(([id, [first, last]]) => [id, [first, last]])),
      closedFacts: (file.closedFacts ?? []).map(withValidity),
      statements: rows ? statementsOfRows(rows, (id) => graph.chunks.get(id)) : (statements ?? []).map((statement) => ({ ...statement })),
    });
  }
  return memory;
}

/** The graph's chunks, with their times and sources (version 3: from the files' origin rows). */
function restoreChunks(graph: KnowledgeGraph, snapshot: GraphSnapshot): void {
  if (snapshot.version !== GRAPH_SNAPSHOT_VERSION) {
    for (const chunk of snapshot.chunks) graph.chunks.set(chunk.id, { ...chunk });
    return;
  }
  const origins = originRows(snapshot);
  for (const chunk of snapshot.chunks) graph.chunks.set(chunk.id, withOrigin(chunk, origins.get(chunk.id)));
}

/** A stored fact with its validity (a version 1 fact: unknown start, still holding, stated by its file). */
function withValidity(fact: StoredFact): GraphFact {
  return { ...fact, validFrom: fact.validFrom ?? '', validTo: fact.validTo ?? null, sourceId: fact.sourceId ?? fact.fileId };
}
