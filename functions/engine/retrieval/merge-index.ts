/**
 * Merging retrieval indexes (a memory's segments) into one, dropping deleted chunks: the index a full
 * build of the surviving chunks, in the same order, makes (chunk table, both lexical fields, vectors;
 * an HNSW graph over the merged vectors when asked). No text is analyzed and no chunk embedded again.
 * The background merge writes what this returns; a reader composes its segments without merging them
 * (compose-index.ts), sharing the copies below.
 */
import { buildHnsw, type HnswOptions, searchHnsw } from './hnsw';
import type { AnnPart, ChunkTable, RetrievalIndex } from './retrieval-index';
import type { SegmentPart } from '../lexical/segment';
import { mergeSegments } from '../lexical/segment-merge';
import type { StringList } from '../lexical/string-table';
import { buildTitleLinks } from './title-links';
import type { VectorHit, VectorSegment } from './vector-segment';

/** One index to merge, with the ordinals of its deleted chunks. */
export interface IndexPart {
  index: RetrievalIndex;
  deleted: ReadonlySet<number>;
}

export interface MergeOptions {
  /** Build an HNSW graph over the merged vectors (the memory's `acceleration`). */
  acceleration?: boolean;
  hnsw?: HnswOptions;
}

/** The surviving chunks of `parts` (at least one), part after part, as one index. */
export function mergeRetrievalIndexes(parts: readonly IndexPart[], options: MergeOptions = {}): RetrievalIndex {
  const { ordinals, count } = partOrdinals(parts);
  const text = mergeSegments(lexicalParts(parts, ordinals, 'text'), count);
  const titles = mergeSegments(lexicalParts(parts, ordinals, 'titles'), count);
  const chunks = mergeChunkTables(parts, ordinals, count);
  const stored = mergeVectors(parts, ordinals, count);
  const ann = stored.vectors && options.acceleration ? buildHnsw(stored.vectors, options.hnsw) : null;
  return { chunks, text, titles, ...stored, ann, links: buildTitleLinks(chunks.titles, text.analyzer, text.languages) };
}

/**
 * Each part's chunk ordinal → merged ordinal (-1: deleted), merged ordinals ascending part after part; `count` live chunks.
 * With `prefix`, its first `parts` maps are taken as they are (they hold its first `count` merged ordinals).
 */
export function partOrdinals(
  parts: readonly IndexPart[],
  prefix?: { parts: number; count: number; ordinals: readonly Int32Array[] },
): { ordinals: Int32Array[]; count: number } {
  let next = prefix?.count ?? 0;
  const ordinals = parts.map(({ index, deleted }, p) => {
    const kept = prefix && p < prefix.parts ? prefix.ordinals[p] : undefined;
    if (kept) return kept;
    const map = new Int32Array(index.chunks.ids.length);
    for (let ordinal = 0; ordinal < map.length; ordinal++) map[ordinal] = deleted.size > 0 && deleted.has(ordinal) ? -1 : next++;
    return map;
  });
  return { ordinals, count: next };
}

/** The parts' HNSW graphs, when every part holding live chunks has one. */
export function partGraphs(parts: readonly IndexPart[], ordinals: readonly Int32Array[]): AnnPart[] | undefined {
  const graphs: AnnPart[] = [];
  for (const [p, { index, deleted }] of parts.entries()) {
    const map = ordinals[p] ?? new Int32Array(0);
    if (deleted.size >= map.length) continue;
    if (!index.ann || !index.vectors) return undefined;
    graphs.push({ ann: index.ann, vectors: index.vectors, ordinals: map, deleted: deleted.size });
  }
  return graphs;
}

/**
 * Approximate top `k` over every part's graph, in composed ordinals, best first: each part is asked for
 * `k` more its deleted rows (they are walked, never returned).
 */
export function searchAnnParts(parts: readonly AnnPart[], query: Float32Array, k: number, ef: number): VectorHit[] {
  const hits: VectorHit[] = [];
  for (const part of parts) {
    const wanted = Math.min(part.vectors.count, k + part.deleted);
    for (const hit of searchHnsw(part.ann, part.vectors, query, wanted, Math.max(ef, wanted))) {
      const ordinal = part.ordinals[hit.ordinal] ?? -1;
      if (ordinal >= 0) hits.push({ ordinal, score: hit.score });
    }
  }
  return hits.sort((a, b) => b.score - a.score || a.ordinal - b.ordinal).slice(0, k);
}

export function lexicalParts(parts: readonly IndexPart[], ordinals: readonly Int32Array[], field: 'text' | 'titles'): SegmentPart[] {
  return parts.map((part, p) => ({ segment: part.index[field], ordinals: ordinals[p] ?? new Int32Array(0) }));
}

/** Where each merged chunk comes from: its part and its ordinal there. */
export interface ChunkPlaces {
  partOf: Int32Array;
  ordinalIn: Int32Array;
}

/** Where each merged chunk comes from; with `prefix`, its first `count` places copied from its earlier places. */
export function chunkPlaces(
  ordinals: readonly Int32Array[],
  count: number,
  prefix?: { parts: number; count: number; places: ChunkPlaces },
): ChunkPlaces {
  const partOf = new Int32Array(count);
  const ordinalIn = new Int32Array(count);
  if (prefix) {
    partOf.set(prefix.places.partOf.subarray(0, prefix.count));
    ordinalIn.set(prefix.places.ordinalIn.subarray(0, prefix.count));
  }
  ordinals.forEach((map, p) => {
    if (prefix && p < prefix.parts) return;
    for (let ordinal = 0; ordinal < map.length; ordinal++) {
      const merged = map[ordinal] ?? -1;
      if (merged < 0) continue;
      partOf[merged] = p;
      ordinalIn[merged] = ordinal;
    }
  });
  return { partOf, ordinalIn };
}

/** The merged chunk table; with `prefix`, its first `count` chunks copied from an earlier merge's table. */
export function mergeChunkTables(
  parts: readonly IndexPart[],
  ordinals: readonly Int32Array[],
  count: number,
  places: ChunkPlaces = chunkPlaces(ordinals, count),
  prefix?: { table: ChunkTable; count: number },
): ChunkTable {
  const kept = prefix?.count ?? 0;
  const added = count - kept;
  const ids = new Array<string>(added);
  const fileIds = new Array<string>(added);
  const titles = new Array<string>(added);
  const starts = new Int32Array(count);
  const ends = new Int32Array(count);
  if (prefix) {
    starts.set(prefix.table.starts.subarray(0, kept));
    ends.set(prefix.table.ends.subarray(0, kept));
  }
  const { partOf, ordinalIn } = places;
  for (let merged = kept; merged < count; merged++) {
    const chunks = parts[partOf[merged] as number]?.index.chunks;
    const ordinal = ordinalIn[merged] as number;
    ids[merged - kept] = chunks?.ids[ordinal] ?? '';
    fileIds[merged - kept] = chunks?.fileIds[ordinal] ?? '';
    titles[merged - kept] = chunks?.titles[ordinal] ?? '';
    starts[merged] = chunks?.starts[ordinal] ?? -1;
    ends[merged] = chunks?.ends[ordinal] ?? -1;
  }
  const texts = new PartTexts(
    parts.map(({ index }) => index.chunks.texts),
    partOf,
    ordinalIn,
  );
  const joined = (table: readonly string[] | undefined, tail: string[]) => (table ? headThen(table, kept, tail) : tail);
  return {
    ids: joined(prefix?.table.ids, ids),
    fileIds: joined(prefix?.table.fileIds, fileIds),
    texts,
    titles: joined(prefix?.table.titles, titles),
    starts,
    ends,
  };
}

/**
 * The first `count` items of `head`, then `tail`, in one array allocated once (a new version's table is
 * the last one's with a few chunks after: copying it once, not growing a slice, halves the cost).
 */
function headThen(head: readonly string[], count: number, tail: readonly string[]): string[] {
  return (head.length === count ? head : head.slice(0, count)).concat(tail);
}

/** The texts of merged chunks, read from their parts when asked for (a loaded part decodes one text at a time). */
class PartTexts implements StringList {
  readonly length: number;

  constructor(
    private readonly parts: readonly StringList[],
    private readonly partOf: Int32Array,
    private readonly ordinalIn: Int32Array,
  ) {
    this.length = partOf.length;
  }

  at(index: number): string | undefined {
    if (!(index >= 0 && index < this.length)) return undefined;
    return this.parts[this.partOf[index] ?? 0]?.at(this.ordinalIn[index] ?? 0);
  }
}

/**
 * The surviving rows of every part's vectors, copied as stored (int8 rows keep their bytes and scales).
 * Parts holding no surviving chunk do not count; the others must share one embedder and encoding.
 */
function mergeVectors(
  parts: readonly IndexPart[],
  ordinals: readonly Int32Array[],
  count: number,
): { vectors: VectorSegment | null; embedder: string | null } {
  const model = vectorModel(parts, ordinals);
  if (!model) return { vectors: null, embedder: null };
  return { vectors: copyLiveRows(parts, ordinals, count, model.vectors), embedder: model.embedder };
}

/**
 * The vectors the parts' live rows share (the first live part's, or the first part's when none is live),
 * checked: parts holding live chunks must share one embedder, dimension and encoding. Null without vectors.
 */
export function vectorModel(
  parts: readonly IndexPart[],
  ordinals: readonly Int32Array[],
): { vectors: VectorSegment; embedder: string | null } | null {
  const live = parts.filter((_, p) => hasLiveChunks(ordinals[p], parts[p]?.deleted));
  const reference = (live[0] ?? parts[0])?.index;
  const model = reference?.vectors;
  if (!reference || !model) return null;
  for (const { index } of live) {
    const segment = index.vectors;
    if (!segment || index.embedder !== reference.embedder || segment.dimensions !== model.dimensions || segment.encoding !== model.encoding)
      throw new RangeError('segments to merge hold vectors of different embedders or encodings');
  }
  return { vectors: model, embedder: reference.embedder };
}

/** One table of the parts' live rows, copied as stored (int8 rows keep their bytes and scales). */
export function copyLiveRows(
  parts: readonly IndexPart[],
  ordinals: readonly Int32Array[],
  count: number,
  model: VectorSegment,
): VectorSegment {
  const { dimensions, encoding } = model;
  const values = encoding === 'int8' ? new Int8Array(count * dimensions) : new Float32Array(count * dimensions);
  const scales = new Float32Array(count);
  parts.forEach(({ index }, p) => {
    const segment = index.vectors;
    const map = ordinals[p] ?? new Int32Array(0);
    if (!segment) return;
    for (const [from, to, merged] of liveRuns(map)) {
      values.set(segment.values.subarray(from * dimensions, to * dimensions), merged * dimensions);
      scales.set(segment.scales.subarray(from, to), merged);
    }
  });
  return { dimensions, count, encoding, values, scales };
}

/** Whether a part's ordinal map keeps a chunk (it has more rows than deleted ones). */
export const hasLiveChunks = (map: Int32Array | undefined, deleted: ReadonlySet<number> | undefined): boolean =>
  (map?.length ?? 0) > (deleted?.size ?? 0);

/** The runs of consecutive live rows of an ordinal map: [first row, row past the last, merged ordinal of the first]. */
function* liveRuns(map: Int32Array): Generator<[number, number, number]> {
  for (let row = 0; row < map.length; ) {
    const merged = map[row] ?? -1;
    if (merged < 0) {
      row++;
      continue;
    }
    let end = row + 1;
    while (end < map.length && map[end] === merged + (end - row)) end++;
    yield [row, end, merged];
    row = end;
  }
}
