/**
 * A compact, read-only view of a memory's graph for retrieval: entities numbered 0..E-1, chunks
 * 0..C-1, entity→chunk mention adjacency and entity↔entity edges as CSR arrays, and facts. Built from
 * a `KnowledgeGraph` by `buildGraphSegment`; stored as bytes by `serializeGraphSegment` (see
 * `graph-segment-format.ts`); walked by `personalizedPageRank`, entered by `linkQueryToEntities`.
 *
 * Edge weights: an SVO relation counts 1 per occurrence, a co-occurrence 0.5 per occurrence, summed
 * per entity pair and stored in both directions. Entity→chunk weights are mention counts. Built from the
 * segment's source (graph-segment-source.ts), which a segment delta changes (graph-segment-delta.ts).
 */
import type { KnowledgeGraph } from './graph-model';
import { segmentOfSource, segmentSourceOf } from './graph-segment-source';

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
  /** What a segment delta applies to (a chain's base: docs/segments.md); absent in older segments. */
  readonly keys?: SegmentKeys;
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

/**
 * What a segment delta applies to (graph-segment-source.ts), carried by a segment written as a chain's base;
 * absent in segments written before segment deltas.
 */
export interface SegmentKeys {
  /** Fact ordinal → fact id. */
  readonly factIds: readonly string[];
  /** Every relation: id, subject and object ordinals, edge weight. */
  readonly relations: ReadonlyArray<readonly [id: string, subject: number, object: number, weight: number]>;
  /** The graph's files in order: id, and how many of `closedFacts` and of `statements` are theirs. */
  readonly files: ReadonlyArray<readonly [fileId: string, closedFacts: number, statements: number]>;
}

/** The segment of `graph` (entities, chunks and facts in the graph's insertion order), with its keys. */
export function buildGraphSegment(graph: KnowledgeGraph): GraphSegment {
  return segmentOfSource(segmentSourceOf(graph));
}
