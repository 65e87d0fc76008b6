/**
 * The binary form of a graph segment, format 1. All integers little-endian.
 *
 * | offset | size | field |
 * |---|---|---|
 * | 0 | 4 | magic `KMGR` |
 * | 4 | 4 | u32 format version (`GRAPH_SEGMENT_FORMAT_VERSION`) |
 * | 8 | 4 | u32 metadata length M (bytes) |
 * | 12 | 24 | u32 entities E, chunks C, files F, mention links L, entity edges K, facts N |
 * | 36 | 4 | u32 reserved, 0 |
 * | 40 | M | UTF-8 JSON `{entityIds, names, types, aliases, chunkIds, fileIds, facts: {texts, predicates, kinds, validFrom?, validTo?, sourceIds?}, closedFacts?, speakers?, statementKinds?, statementRows?, keys?}`, zero-padded to a multiple of 4 |
 * | … | | u32 chunkFiles[C], u32 entityChunkOffsets[E+1], u32 entityChunks[L], f32 entityChunkWeights[L], u32 edgeOffsets[E+1], u32 edgeTargets[K], f32 edgeWeights[K], u32 factSubjects[N], u32 factObjects[N], u32 factChunks[N] |
 *
 * Loading is one JSON.parse and one copy of the numeric tail; typed arrays are views into the copy.
 * The metadata's `?` fields (validity, closed facts, speaker statements) came later within format 1:
 * segments without them read as before, and readers treat a fact without validity as holding since its source.
 * Speaker statements are written as rows (`speakers`, `statementKinds`, `statementRows`: graph-segment-statements.ts); segments
 * written before them carry `statements` as objects, which still read. `keys` (fact ids, relations, files'
 * shares: `SegmentKeys`) is what segment deltas apply to (graph-segment-source.ts); segments without it
 * read as before and take no delta.
 */
import type { ClosedFactRecord, GraphSegment, SegmentKeys, StatementRecord } from './graph-segment';
import { type SegmentStatementTable, statementsOfTable, statementTable } from './graph-segment-statements';

/** Version of the layout written by `serializeGraphSegment`; bump on any change. */
const GRAPH_SEGMENT_FORMAT_VERSION = 1;

const MAGIC = [0x4b, 0x4d, 0x47, 0x52]; // "KMGR"
const HEADER_BYTES = 40;

interface Metadata {
  entityIds: string[];
  names: string[];
  types: string[];
  aliases: string[][];
  chunkIds: string[];
  fileIds: string[];
  facts: {
    texts: string[];
    predicates: string[];
    kinds: string[];
    validFrom?: readonly string[];
    validTo?: ReadonlyArray<string | null>;
    sourceIds?: readonly string[];
  };
  closedFacts?: readonly ClosedFactRecord[];
  /** Speaker statements as objects: segments written before the rows. */
  statements?: readonly StatementRecord[];
  keys?: SegmentKeys;
}

/** The metadata as stored: speaker statements as rows (see graph-segment-statements.ts). */
type StoredMetadata = Metadata & Partial<SegmentStatementTable>;

/** Encodes `segment` (see the table above). */
export function serializeGraphSegment(segment: GraphSegment): Uint8Array {
  assertLittleEndian();
  const metadata: StoredMetadata = {
    entityIds: [...segment.entityIds],
    names: [...segment.names],
    types: [...segment.types],
    aliases: segment.aliases.map((list) => [...list]),
    chunkIds: [...segment.chunkIds],
    fileIds: [...segment.fileIds],
    facts: {
      texts: [...segment.facts.texts],
      predicates: [...segment.facts.predicates],
      kinds: [...segment.facts.kinds],
      ...(segment.facts.validFrom ? { validFrom: segment.facts.validFrom } : {}),
      ...(segment.facts.validTo ? { validTo: segment.facts.validTo } : {}),
      ...(segment.facts.sourceIds ? { sourceIds: segment.facts.sourceIds } : {}),
    },
    ...(segment.closedFacts ? { closedFacts: segment.closedFacts } : {}),
    ...(segment.statements ? statementTable(segment.statements) : {}),
    ...(segment.keys ? { keys: segment.keys } : {}),
  };
  const json = new TextEncoder().encode(JSON.stringify(metadata));
  const arrays = numericArrays(segment);
  const tailStart = align4(HEADER_BYTES + json.length);
  const out = new Uint8Array(tailStart + arrays.reduce((sum, array) => sum + array.byteLength, 0));
  out.set(MAGIC, 0);
  const view = new DataView(out.buffer);
  const counts = [
    segment.entityIds.length,
    segment.chunkIds.length,
    segment.fileIds.length,
    segment.entityChunks.length,
    segment.edgeTargets.length,
    segment.facts.texts.length,
  ];
  [GRAPH_SEGMENT_FORMAT_VERSION, json.length, ...counts, 0].forEach((value, index) => view.setUint32(4 + 4 * index, value, true));
  out.set(json, HEADER_BYTES);
  let position = tailStart;
  for (const array of arrays) {
    out.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), position);
    position += array.byteLength;
  }
  return out;
}

function numericArrays(segment: GraphSegment): Array<Uint32Array | Float32Array> {
  return [
    segment.chunkFiles,
    segment.entityChunkOffsets,
    segment.entityChunks,
    segment.entityChunkWeights,
    segment.edgeOffsets,
    segment.edgeTargets,
    segment.edgeWeights,
    segment.facts.subjects,
    segment.facts.objects,
    segment.facts.chunks,
  ];
}

/** Decodes bytes written by `serializeGraphSegment`; throws on a foreign, truncated or newer format. */
export function deserializeGraphSegment(bytes: Uint8Array): GraphSegment {
  assertLittleEndian();
  if (bytes.length < HEADER_BYTES || MAGIC.some((byte, index) => bytes[index] !== byte)) throw formatError('not a graph segment');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(4, true);
  if (version !== GRAPH_SEGMENT_FORMAT_VERSION) throw formatError(`unsupported format version ${version}`);
  const [metadataLength, E, C, , L, K, N] = [8, 12, 16, 20, 24, 28, 32].map((at) => view.getUint32(at, true)) as number[] as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const tailStart = align4(HEADER_BYTES + metadataLength);
  const expected = tailStart + 4 * (C + 2 * (E + 1) + 2 * L + 2 * K + 3 * N);
  if (bytes.length !== expected) throw formatError(`length ${bytes.length}, expected ${expected}`);
  const metadata = JSON.parse(
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(HEADER_BYTES, HEADER_BYTES + metadataLength)),
  ) as StoredMetadata;
  if (metadata.entityIds?.length !== E || metadata.chunkIds?.length !== C || metadata.facts?.texts?.length !== N)
    throw formatError('metadata does not match counts');
  if (metadata.keys && metadata.keys.factIds?.length !== N) throw formatError('keys do not match counts');
  const { speakers, statementKinds, statementRows, ...fields } = metadata;
  const statements =
    speakers && statementKinds && statementRows ? statementsOfTable({ speakers, statementKinds, statementRows }) : metadata.statements;
  const tail = bytes.slice(tailStart);
  let position = 0;
  const u32 = (count: number): Uint32Array => {
    const array = new Uint32Array(tail.buffer, position, count);
    position += 4 * count;
    return array;
  };
  const f32 = (count: number): Float32Array => {
    const array = new Float32Array(tail.buffer, position, count);
    position += 4 * count;
    return array;
  };
  const segment: GraphSegment = {
    ...fields,
    ...(statements ? { statements } : {}),
    chunkFiles: u32(C),
    entityChunkOffsets: u32(E + 1),
    entityChunks: u32(L),
    entityChunkWeights: f32(L),
    edgeOffsets: u32(E + 1),
    edgeTargets: u32(K),
    edgeWeights: f32(K),
    facts: { ...fields.facts, subjects: u32(N), objects: u32(N), chunks: u32(N) },
  };
  checkRanges(segment);
  return segment;
}

/** Cheap consistency checks, so a corrupt segment fails here and not as wrong scores later. */
function checkRanges(segment: GraphSegment): void {
  const E = segment.entityIds.length;
  const C = segment.chunkIds.length;
  const inRange = (array: Uint32Array, limit: number): boolean => array.every((value) => value < limit);
  const monotone = (offsets: Uint32Array, total: number): boolean =>
    offsets[0] === 0 &&
    offsets[offsets.length - 1] === total &&
    offsets.every((value, index) => index === 0 || value >= (offsets[index - 1] ?? 0));
  if (!monotone(segment.entityChunkOffsets, segment.entityChunks.length) || !monotone(segment.edgeOffsets, segment.edgeTargets.length)) {
    throw formatError('bad offsets');
  }
  const ok =
    inRange(segment.entityChunks, C) &&
    inRange(segment.edgeTargets, E) &&
    inRange(segment.chunkFiles, segment.fileIds.length) &&
    inRange(segment.facts.subjects, E) &&
    inRange(segment.facts.objects, E) &&
    inRange(segment.facts.chunks, C);
  if (!ok) throw formatError('ordinal out of range');
}

function align4(value: number): number {
  return (value + 3) & ~3;
}

function assertLittleEndian(): void {
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) throw new Error('graph segments need a little-endian platform');
}

function formatError(message: string): Error {
  return new RangeError(`graph segment: ${message}`);
}
