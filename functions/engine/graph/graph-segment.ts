/**
 * A compact, read-only view of a memory's graph for retrieval: entities numbered 0..E-1, chunks
 * 0..C-1, entity→chunk mention adjacency and entity↔entity edges as CSR arrays, and facts. Built from
 * a `KnowledgeGraph` by `buildGraphSegment`; stored as bytes by `serializeGraphSegment` (see
 * `graph-segment-format.ts`); walked by `personalizedPageRank`, entered by `linkQueryToEntities`.
 *
 * Edge weights: an SVO relation counts 1 per occurrence, a co-occurrence 0.5 per occurrence, summed
 * per entity pair and stored in both directions. Entity→chunk weights are mention counts.
 */
import type { KnowledgeGraph } from './graph-model';

export { deserializeGraphSegment, serializeGraphSegment } from './graph-segment-format';
export { personalizedPageRank, topChunks } from './graph-ppr';
export { linkQueryToEntities } from './query-link';

export interface GraphSegment {
  readonly entityIds: readonly string[];
  readonly names: readonly string[];
  readonly types: readonly string[];
  /** Alias keys per entity (normalised; the display name's key first). */
  readonly aliases: readonly (readonly string[])[];
  readonly chunkIds: readonly string[];
  readonly fileIds: readonly string[];
  /** Chunk ordinal → file ordinal. */
  readonly chunkFiles: Uint32Array;
  /** Entity ordinal e's chunks are `entityChunks[entityChunkOffsets[e] .. entityChunkOffsets[e+1]]`. */
  readonly entityChunkOffsets: Uint32Array;
  readonly entityChunks: Uint32Array;
  readonly entityChunkWeights: Float32Array;
  /** Entity ordinal e's neighbours are `edgeTargets[edgeOffsets[e] .. edgeOffsets[e+1]]`. */
  readonly edgeOffsets: Uint32Array;
  readonly edgeTargets: Uint32Array;
  readonly edgeWeights: Float32Array;
  readonly facts: GraphSegmentFacts;
  /** Facts an earlier version of a file stated, closed when it was replaced (absent in older segments). */
  readonly closedFacts?: readonly ClosedFactRecord[];
  /** Customer users' first-person statements: their profiles (absent in older segments). */
  readonly statements?: readonly StatementRecord[];
}

/** Facts as parallel arrays; subjects, objects and chunks are ordinals. */
interface GraphSegmentFacts {
  readonly texts: readonly string[];
  readonly predicates: readonly string[];
  readonly kinds: readonly string[];
  readonly subjects: Uint32Array;
  readonly objects: Uint32Array;
  readonly chunks: Uint32Array;
  /** Validity (absent in older segments: the source's time, still holding). '' when unknown. */
  readonly validFrom?: readonly string[];
  readonly validTo?: ReadonlyArray<string | null>;
  readonly sourceIds?: readonly string[];
}

/** A closed fact: its ends by entity id (they may have left the graph) and its source. */
export interface ClosedFactRecord {
  readonly text: string;
  readonly subjectId: string;
  readonly objectId: string;
  readonly fileId: string;
  readonly sourceId: string;
  readonly validFrom: string;
  readonly validTo: string | null;
}

/** A speaker statement as retrieval reads it (see SpeakerStatement). */
export interface StatementRecord {
  readonly speaker: string;
  readonly category: 'preference' | 'fact';
  readonly kind: string;
  readonly text: string;
  readonly chunkId: string;
  readonly sourceId: string;
  readonly validFrom: string;
  readonly validTo: string | null;
}

const SVO_WEIGHT = 1;
const COOCCURRENCE_WEIGHT = 0.5;

/** The segment of `graph` (entities, chunks and facts in the graph's insertion order). */
export function buildGraphSegment(graph: KnowledgeGraph): GraphSegment {
  const entities = [...graph.entities.values()];
  const entityOrdinal = new Map(entities.map((entity, index) => [entity.id, index]));
  const chunks = [...graph.chunks.values()];
  const chunkOrdinal = new Map(chunks.map((chunk, index) => [chunk.id, index]));
  const fileIds = [...new Set(chunks.map((chunk) => chunk.fileId))];
  const fileOrdinal = new Map(fileIds.map((id, index) => [id, index]));
  const mentions = chunkMentions(graph, entities.length, entityOrdinal, chunkOrdinal);
  const neighbours = relationNeighbours(graph, entities.length, entityOrdinal);
  const mentionCsr = toCsr(mentions);
  const edgeCsr = toCsr(neighbours);
  const facts = [...graph.facts.values()].filter((fact) => chunkOrdinal.has(fact.chunkId));
  return {
    entityIds: entities.map((entity) => entity.id),
    names: entities.map((entity) => entity.name),
    types: entities.map((entity) => entity.type),
    aliases: entities.map((entity) => [entity.key, ...[...entity.aliases.keys()].filter((key) => key !== entity.key)]),
    chunkIds: chunks.map((chunk) => chunk.id),
    fileIds,
    chunkFiles: Uint32Array.from(chunks, (chunk) => fileOrdinal.get(chunk.fileId) ?? 0),
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
    closedFacts: [...graph.files.values()].flatMap((file) =>
      file.closedFacts.map(({ text, subjectId, objectId, fileId, sourceId, validFrom, validTo }) => ({
        text,
        subjectId,
        objectId,
        fileId,
        sourceId,
        validFrom,
        validTo,
      })),
    ),
    statements: speakerStatements(graph),
  };
}

/** Every file's speaker statements, as they are (the segment is built at every sync: no copies). */
function speakerStatements(graph: KnowledgeGraph): StatementRecord[] {
  const statements: StatementRecord[] = [];
  for (const file of graph.files.values()) for (const statement of file.statements) statements.push(statement);
  return statements;
}

/** Per entity ordinal: chunk ordinal → how often the entity is mentioned in that chunk. */
function chunkMentions(
  graph: KnowledgeGraph,
  entityCount: number,
  entityOrdinal: ReadonlyMap<string, number>,
  chunkOrdinal: ReadonlyMap<string, number>,
): Map<number, number>[] {
  const mentions = Array.from({ length: entityCount }, () => new Map<number, number>());
  for (const file of graph.files.values()) {
    for (const mention of file.mentions) {
      const perChunk = mentions[entityOrdinal.get(mention.entityId) ?? -1];
      const chunk = chunkOrdinal.get(mention.chunkId);
      if (perChunk !== undefined && chunk !== undefined) perChunk.set(chunk, (perChunk.get(chunk) ?? 0) + 1);
    }
  }
  return mentions;
}

/** Per entity ordinal: neighbour ordinal → the weight of the relations between them (both ways). */
function relationNeighbours(graph: KnowledgeGraph, entityCount: number, entityOrdinal: ReadonlyMap<string, number>): Map<number, number>[] {
  const neighbours = Array.from({ length: entityCount }, () => new Map<number, number>());
  for (const relation of graph.relations.values()) {
    const a = entityOrdinal.get(relation.subjectId);
    const b = entityOrdinal.get(relation.objectId);
    if (a === undefined || b === undefined || a === b) continue;
    let occurrences = 0;
    for (const count of relation.support.values()) occurrences += count;
    const weight = occurrences * (relation.kind === 'svo' ? SVO_WEIGHT : COOCCURRENCE_WEIGHT);
    addWeight(neighbours[a], b, weight);
    addWeight(neighbours[b], a, weight);
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
