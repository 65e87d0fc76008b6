/**
 * A plain-JSON form of a memory's graph, for storage between runs (table items per entity, relation,
 * fact and file, or one document) and for restoring it to take more files. Maps become arrays of
 * pairs; the resolver's indexes are rebuilt on restore.
 *
 * Version 2 added validity: chunk times and sources, fact `validFrom`/`validTo`/`sourceId`, relation
 * validity, per-file relation times, closed facts and speaker statements. Version 1 snapshots still
 * restore: their facts take `validFrom` '' (unknown: readers show the source's time) and `validTo` null.
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

const GRAPH_SNAPSHOT_VERSION = 2;
/** Versions `restoreMemoryGraph` reads. */
const READABLE_VERSIONS: readonly number[] = [1, GRAPH_SNAPSHOT_VERSION];

type Pairs<V> = Array<[string, V]>;

interface EntitySnapshot {
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

interface RelationSnapshot {
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

interface FileSnapshot {
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
}

/** A version 1 fact: no validity. */
type StoredFact = Omit<GraphFact, 'validFrom' | 'validTo' | 'sourceId'> & Partial<Pick<GraphFact, 'validFrom' | 'validTo' | 'sourceId'>>;

export interface GraphSnapshot {
  version: 1 | typeof GRAPH_SNAPSHOT_VERSION;
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
    relations: [...graph.relations.values()].map((relation) => ({ ...relation, support: [...relation.support] })),
    facts: [...graph.facts.values()].map((fact) => ({ ...fact })),
    chunks: [...graph.chunks.values()].map((chunk) => ({ ...chunk })),
    files: [...graph.files.values()].map(fileSnapshot),
  };
}

function entitySnapshot(entity: GraphEntity): EntitySnapshot {
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

function fileSnapshot(file: FileContribution): FileSnapshot {
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
    statements: file.statements.map((statement) => ({ ...statement })),
  };
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
  for (const chunk of snapshot.chunks) graph.chunks.set(chunk.id, { ...chunk });
  for (const file of snapshot.files) {
    const nested = (pairs: Pairs<Pairs<number>>): Map<string, Map<string, number>> =>
      new Map(pairs.map(([id, inner]) => [id, new Map(inner)]));
    graph.files.set(file.fileId, {
      ...file,
      aliasCounts: nested(file.aliasCounts),
      typeCounts: nested(file.typeCounts),
      relationCounts: new Map(file.relationCounts),
      relationTimes: new Map((file.relationTimes ?? []).map(([id, [first, last]]) => [id, [first, last]])),
      closedFacts: (file.closedFacts ?? []).map(withValidity),
      statements: (file.statements ?? []).map((statement) => ({ ...statement })),
    });
  }
  return memory;
}

/** A stored fact with its validity (a version 1 fact: unknown start, still holding, stated by its file). */
function withValidity(fact: StoredFact): GraphFact {
  return { ...fact, validFrom: fact.validFrom ?? '', validTo: fact.validTo ?? null, sourceId: fact.sourceId ?? fact.fileId };
}
