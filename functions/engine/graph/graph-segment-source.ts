/**
 * What a graph segment is made of, by id (docs/segments.md, "The graph of graph memories"): the entities,
 * relations (with their edge weight), facts, chunks and files (their mentions, closed facts and speaker
 * statements) a segment shows, in the graph's order. A whole segment is built from it (`segmentOfSource`);
 * a segment delta (graph-segment-delta.ts) sets and takes away its records by id, so a reader composes a
 * version's segment from its chain's base segment and deltas; a base segment carries the keys
 * (`GraphSegment.keys`) to give its source back (`sourceOfSegment`).
 */
import type { KnowledgeGraph } from './graph-model';
import type { ClosedFactRecord, GraphSegment, SegmentKeys, StatementRecord } from './graph-segment';

export interface SourceEntity {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  /** Alias keys (normalised; the display name's key first). */
  readonly aliases: readonly string[];
}

export interface SourceRelation {
  readonly id: string;
  readonly subjectId: string;
  readonly objectId: string;
  /** Its edge weight: occurrences, times 1 (SVO) or 0.5 (co-occurrence). */
  readonly weight: number;
}

export interface SourceFact {
  readonly id: string;
  readonly text: string;
  readonly predicate: string;
  readonly kind: string;
  readonly subjectId: string;
  readonly objectId: string;
  readonly chunkId: string;
  readonly validFrom: string;
  readonly validTo: string | null;
  readonly sourceId: string;
}

export interface SourceFile {
  readonly fileId: string;
  /** Its mentions, counted: entity id, chunk id (one of the file's), how often. */
  readonly mentions: ReadonlyArray<readonly [entityId: string, chunkId: string, count: number]>;
  readonly closedFacts: readonly ClosedFactRecord[];
  readonly statements: readonly StatementRecord[];
}

/** The records of a segment by id, each map in the graph's order; chunks map to their file. */
export interface SegmentSource {
  readonly entities: ReadonlyMap<string, SourceEntity>;
  readonly relations: ReadonlyMap<string, SourceRelation>;
  readonly facts: ReadonlyMap<string, SourceFact>;
  readonly chunks: ReadonlyMap<string, string>;
  readonly files: ReadonlyMap<string, SourceFile>;
}

const SVO_WEIGHT = 1;
const COOCCURRENCE_WEIGHT = 0.5;

/** The source of `graph`'s segment. */
export function segmentSourceOf(graph: KnowledgeGraph): SegmentSource {
  const entities = new Map<string, SourceEntity>();
  for (const entity of graph.entities.values()) entities.set(entity.id, sourceEntity(graph, entity.id) as SourceEntity);
  const relations = new Map<string, SourceRelation>();
  for (const id of graph.relations.keys()) relations.set(id, sourceRelation(graph, id) as SourceRelation);
  const facts = new Map<string, SourceFact>();
  for (const fact of graph.facts.values()) facts.set(fact.id, sourceFact(fact));
  const chunks = new Map<string, string>();
  for (const chunk of graph.chunks.values()) chunks.set(chunk.id, chunk.fileId);
  const files = new Map<string, SourceFile>();
  for (const fileId of graph.files.keys()) files.set(fileId, sourceFile(graph, fileId) as SourceFile);
  return { entities, relations, facts, chunks, files };
}

/** The entity `id` of `graph` as a segment shows it; undefined when the graph does not hold it. */
export function sourceEntity(graph: KnowledgeGraph, id: string): SourceEntity | undefined {
  const entity = graph.entities.get(id);
  if (!entity) return undefined;
  const aliases = [entity.key];
  for (const key of entity.aliases.keys()) if (key !== entity.key) aliases.push(key);
  return { id, name: entity.name, type: entity.type, aliases };
}

export function sourceRelation(graph: KnowledgeGraph, id: string): SourceRelation | undefined {
  const relation = graph.relations.get(id);
  if (!relation) return undefined;
  let occurrences = 0;
  for (const count of relation.support.values()) occurrences += count;
  const weight = occurrences * (relation.kind === 'svo' ? SVO_WEIGHT : COOCCURRENCE_WEIGHT);
  return { id, subjectId: relation.subjectId, objectId: relation.objectId, weight };
}

export function sourceFact(fact: SourceFact): SourceFact {
  const { id, text, predicate, kind, subjectId, objectId, chunkId, validFrom, validTo, sourceId } = fact;
  return { id, text, predicate, kind, subjectId, objectId, chunkId, validFrom, validTo, sourceId };
}

export function sourceFile(graph: KnowledgeGraph, fileId: string): SourceFile | undefined {
  const file = graph.files.get(fileId);
  if (!file) return undefined;
  const counted = new Map<string, [string, string, number]>();
  for (const { entityId, chunkId } of file.mentions) {
    const key = `${entityId}\u0000${chunkId}`;
    const entry = counted.get(key);
    if (entry) entry[2]++;
    else counted.set(key, [entityId, chunkId, 1]);
  }
  const closedFacts = file.closedFacts.map(({ text, subjectId, objectId, fileId: of, sourceId, validFrom, validTo }) => ({
    text,
    subjectId,
    objectId,
    fileId: of,
    sourceId,
    validFrom,
    validTo,
  }));
  const statements = file.statements.map(({ speaker, category, kind, text, chunkId, sourceId, validFrom, validTo }) => ({
    speaker,
    category,
    kind,
    text,
    chunkId,
    sourceId,
    validFrom,
    validTo,
  }));
  return { fileId, mentions: [...counted.values()], closedFacts, statements };
}

/** The segment of `source` (entities, chunks and facts in its order), with the keys a delta applies to. */
export function segmentOfSource(source: SegmentSource): GraphSegment {
  const entities = [...source.entities.values()];
  const entityOrdinal = new Map(entities.map((entity, index) => [entity.id, index]));
  const chunkIds = [...source.chunks.keys()];
  const chunkOrdinal = new Map(chunkIds.map((id, index) => [id, index]));
  const fileIds = [...new Set(source.chunks.values())];
  const fileOrdinal = new Map(fileIds.map((id, index) => [id, index]));
  const mentionCsr = toCsr(chunkMentions(source, entities.length, entityOrdinal, chunkOrdinal));
  const edgeCsr = toCsr(relationNeighbours(source, entities.length, entityOrdinal));
  const facts = [...source.facts.values()].filter((fact) => chunkOrdinal.has(fact.chunkId));
  const files = [...source.files.values()];
  const keys: SegmentKeys = {
    factIds: facts.map((fact) => fact.id),
    relations: [...source.relations.values()].map((r) => [
      r.id,
      entityOrdinal.get(r.subjectId) ?? -1,
      entityOrdinal.get(r.objectId) ?? -1,
      r.weight,
    ]),
    files: files.map((file) => [file.fileId, file.closedFacts.length, file.statements.length]),
  };
  return {
    entityIds: entities.map((entity) => entity.id),
    names: entities.map((entity) => entity.name),
    types: entities.map((entity) => entity.type),
    aliases: entities.map((entity) => entity.aliases),
    chunkIds,
    fileIds,
    chunkFiles: Uint32Array.from(source.chunks.values(), (fileId) => fileOrdinal.get(fileId) ?? 0),
    entityChunkOffsets: mentionCsr.offsets,
    entityChunks: mentionCsr.targets,
    entityChunkWeights: mentionCsr.weights,
    edgeOffsets: edgeCsr.offsets,
    edgeTargets: edgeCsr.targets,
    edgeWeights: edgeCsr.weights,
    facts: {
      texts: facts.map((fact) => fact.text),
      predicates: facts.map((fact) => fact.predicate),
      kinds: facts.map((fact) => fact.kind),
      subjects: Uint32Array.from(facts, (fact) => entityOrdinal.get(fact.subjectId) ?? 0),
      objects: Uint32Array.from(facts, (fact) => entityOrdinal.get(fact.objectId) ?? 0),
      chunks: Uint32Array.from(facts, (fact) => chunkOrdinal.get(fact.chunkId) ?? 0),
      validFrom: facts.map((fact) => fact.validFrom),
      validTo: facts.map((fact) => fact.validTo),
      sourceIds: facts.map((fact) => fact.sourceId),
    },
    closedFacts: files.flatMap((file) => file.closedFacts),
    statements: files.flatMap((file) => file.statements),
    keys,
  };
}

/** Per entity ordinal: chunk ordinal → how often the entity is mentioned in that chunk. */
function chunkMentions(
  source: SegmentSource,
  entityCount: number,
  entityOrdinal: ReadonlyMap<string, number>,
  chunkOrdinal: ReadonlyMap<string, number>,
): Map<number, number>[] {
  const mentions = Array.from({ length: entityCount }, () => new Map<number, number>());
  for (const file of source.files.values()) {
    for (const [entityId, chunkId, count] of file.mentions) {
      const perChunk = mentions[entityOrdinal.get(entityId) ?? -1];
      const chunk = chunkOrdinal.get(chunkId);
      if (perChunk !== undefined && chunk !== undefined) perChunk.set(chunk, (perChunk.get(chunk) ?? 0) + count);
    }
  }
  return mentions;
}

/** Per entity ordinal: neighbour ordinal → the weight of the relations between them (both ways). */
function relationNeighbours(source: SegmentSource, entityCount: number, entityOrdinal: ReadonlyMap<string, number>): Map<number, number>[] {
  const neighbours = Array.from({ length: entityCount }, () => new Map<number, number>());
  for (const relation of source.relations.values()) {
    const a = entityOrdinal.get(relation.subjectId);
    const b = entityOrdinal.get(relation.objectId);
    if (a === undefined || b === undefined || a === b) continue;
    addWeight(neighbours[a], b, relation.weight);
    addWeight(neighbours[b], a, relation.weight);
  }
  return neighbours;
}

function addWeight(map: Map<number, number> | undefined, key: number, weight: number): void {
  if (map !== undefined) map.set(key, (map.get(key) ?? 0) + weight);
}

/** Rows of (target → weight) maps as CSR arrays, targets ascending within a row. */
function toCsr(rows: ReadonlyArray<Map<number, number>>): { offsets: Uint32Array; targets: Uint32Array; weights: Float32Array } {
  const offsets = new Uint32Array(rows.length + 1);
  rows.forEach((row, index) => (offsets[index + 1] = (offsets[index] ?? 0) + row.size));
  const total = offsets[rows.length] ?? 0;
  const targets = new Uint32Array(total);
  const weights = new Float32Array(total);
  rows.forEach((row, index) => {
    let at = offsets[index] ?? 0;
    for (const [target, weight] of [...row].sort((a, b) => a[0] - b[0])) {
      targets[at] = target;
      weights[at] = weight;
      at++;
    }
  });
  return { offsets, targets, weights };
}

/** The source of a segment that carries its keys (a base written by this code); undefined for an older one. */
export function sourceOfSegment(segment: GraphSegment): SegmentSource | undefined {
  const keys = segment.keys;
  if (!keys) return undefined;
  const { entityIds } = segment;
  const entities = new Map<string, SourceEntity>();
  entityIds.forEach((id, e) =>
    entities.set(id, { id, name: segment.names[e] ?? '', type: segment.types[e] ?? '', aliases: segment.aliases[e] ?? [] }),
  );
  const chunks = new Map<string, string>();
  segment.chunkIds.forEach((id, c) => chunks.set(id, segment.fileIds[segment.chunkFiles[c] ?? 0] ?? ''));
  const relations = new Map<string, SourceRelation>();
  for (const [id, s, o, weight] of keys.relations)
    relations.set(id, { id, subjectId: entityIds[s] ?? '', objectId: entityIds[o] ?? '', weight });
  return { entities, relations, facts: segmentFacts(segment, keys), chunks, files: segmentFiles(segment, keys, chunks) };
}

function segmentFacts(segment: GraphSegment, keys: SegmentKeys): Map<string, SourceFact> {
  const { facts, entityIds, chunkIds } = segment;
  const out = new Map<string, SourceFact>();
  keys.factIds.forEach((id, n) =>
    out.set(id, {
      id,
      text: facts.texts[n] ?? '',
      predicate: facts.predicates[n] ?? '',
      kind: facts.kinds[n] ?? '',
      subjectId: entityIds[facts.subjects[n] ?? 0] ?? '',
      objectId: entityIds[facts.objects[n] ?? 0] ?? '',
      chunkId: chunkIds[facts.chunks[n] ?? 0] ?? '',
      validFrom: facts.validFrom?.[n] ?? '',
      validTo: facts.validTo?.[n] ?? null,
      sourceId: facts.sourceIds?.[n] ?? '',
    }),
  );
  return out;
}

/** The files in order, their closed facts and statements cut by the keys' counts, their mentions from the segment's rows. */
function segmentFiles(segment: GraphSegment, keys: SegmentKeys, chunks: ReadonlyMap<string, string>): Map<string, SourceFile> {
  const mentions = new Map<string, Array<[string, string, number]>>();
  segment.entityIds.forEach((entityId, e) => {
    for (let at = segment.entityChunkOffsets[e] ?? 0; at < (segment.entityChunkOffsets[e + 1] ?? 0); at++) {
      const chunkId = segment.chunkIds[segment.entityChunks[at] ?? 0] ?? '';
      const fileId = chunks.get(chunkId) ?? '';
      let list = mentions.get(fileId);
      if (!list) mentions.set(fileId, (list = []));
      list.push([entityId, chunkId, segment.entityChunkWeights[at] ?? 0]);
    }
  });
  const files = new Map<string, SourceFile>();
  let closedAt = 0;
  let statementAt = 0;
  for (const [fileId, closed, statements] of keys.files) {
    files.set(fileId, {
      fileId,
      mentions: mentions.get(fileId) ?? [],
      closedFacts: (segment.closedFacts ?? []).slice(closedAt, (closedAt += closed)),
      statements: (segment.statements ?? []).slice(statementAt, (statementAt += statements)),
    });
  }
  return files;
}
