/**
 * The vectors of a composed index (compose-index.ts) left in their segments: a new version of a memory
 * copies no vector row and makes no new search kernel for the segments it keeps. Each large segment is
 * searched by its own exact kernel (int8-dot-kernel.ts, made once per segment and kept as long as the
 * segment is: the reader caches segments by their immutable folder), over its live rows only; the small
 * segments (a one-file ingestion's) are gathered, live rows only, into one small table searched in one
 * pass, so a hundred unmerged small segments cost one scan, not a hundred. The parts' hits are merged.
 *
 * Exact: a row scores the same bits whichever table holds it (the same bytes, scale and arithmetic), each
 * part returns its best `k` by (score, then lower ordinal), and a part's rows keep their order among the
 * composed ordinals, so the merged top `k` is the top `k` of one table of every live row: the ranking
 * `mergeRetrievalIndexes` gives. Deleted rows are never scored.
 */
import type { AllowedSet } from './allowed-search';
import { rowScore, searchExact, type VectorHit, type VectorSegment } from './vector-segment';

/**
 * Segments with fewer rows than this are gathered into one table per version, not searched by their own
 * kernel; their lexical postings are gathered too (compose-index.ts, segment-gather.ts).
 */
export const GATHER_BELOW_ROWS = 4096;

/** One table searched on its own: its rows' ordinals in the composed index (-1: deleted) and its live rows. */
interface SearchPart {
  /** The composed index's part whose vectors these are (-1: the gathered table of the small parts). */
  readonly part: number;
  readonly vectors: VectorSegment;
  /** Row → composed ordinal (-1: deleted); a part's live rows have ascending composed ordinals. */
  readonly ordinals: Int32Array;
  /** The live rows, ascending; absent when every row is live. */
  readonly rows?: Int32Array;
  /** Whether `ordinals` are a segment's own (then `rowIn` finds a composed ordinal's row), else gathered. */
  readonly gathered: boolean;
}

/** A composed index's vectors, where they are. */
export interface ComposedVectors {
  readonly dimensions: number;
  readonly count: number;
  /** The segments' vectors, by part of the composed index. */
  readonly segments: readonly (VectorSegment | null)[];
  /** Composed ordinal → its part and row there. */
  readonly partOf: Int32Array;
  readonly rowIn: Int32Array;
  readonly searched: readonly SearchPart[];
}

export interface VectorPartInput {
  readonly vectors: VectorSegment | null;
  /** Row → composed ordinal (-1: deleted). */
  readonly ordinals: Int32Array;
  readonly deleted: number;
}

/**
 * The parts' vectors (those holding live rows share dimensions and encoding: the caller checked); parts of
 * fewer than `gatherBelow` rows are gathered into one table.
 */
export function composeVectors(
  parts: readonly VectorPartInput[],
  places: { partOf: Int32Array; ordinalIn: Int32Array },
  gatherBelow = GATHER_BELOW_ROWS,
  previous?: { vectors: ComposedVectors; parts: number },
): ComposedVectors {
  const searched: SearchPart[] = [];
  const small: VectorPartInput[] = [];
  let dimensions = 0;
  for (const [p, part] of parts.entries()) {
    const { vectors, ordinals, deleted } = part;
    if (!vectors || deleted >= ordinals.length) continue;
    dimensions = vectors.dimensions;
    if (vectors.count < gatherBelow) small.push(part);
    else
      searched.push(
        keptPart(previous, p) ?? {
          part: p,
          vectors,
          ordinals,
          ...(deleted > 0 ? { rows: liveRows(ordinals, deleted) } : {}),
          gathered: false,
        },
      );
  }
  if (small.length > 0) searched.push(gather(small, dimensions));
  const { partOf, ordinalIn } = places;
  return { dimensions, count: partOf.length, segments: parts.map((part) => part.vectors), partOf, rowIn: ordinalIn, searched };
}

/** Part `p`'s search part in the version before, when that version shares its first parts (and so this one's rows). */
function keptPart(previous: { vectors: ComposedVectors; parts: number } | undefined, p: number): SearchPart | undefined {
  return previous && p < previous.parts ? previous.vectors.searched.find((part) => part.part === p) : undefined;
}

function liveRows(ordinals: Int32Array, deleted: number): Int32Array {
  const rows = new Int32Array(ordinals.length - deleted);
  for (let row = 0, next = 0; row < ordinals.length; row++) if ((ordinals[row] as number) >= 0) rows[next++] = row;
  return rows;
}

/** The live rows of small parts (in composed order) copied into one table. */
function gather(parts: readonly VectorPartInput[], dimensions: number): SearchPart {
  const count = parts.reduce((sum, part) => sum + part.ordinals.length - part.deleted, 0);
  const first = parts[0]?.vectors;
  const encoding = first?.encoding ?? 'int8';
  const values = encoding === 'int8' ? new Int8Array(count * dimensions) : new Float32Array(count * dimensions);
  const scales = new Float32Array(count);
  const ordinals = new Int32Array(count);
  let next = 0;
  for (const { vectors, ordinals: map } of parts) {
    if (!vectors) continue;
    for (let row = 0; row < map.length; row++) {
      const ordinal = map[row] as number;
      if (ordinal < 0) continue;
      values.set(vectors.values.subarray(row * dimensions, (row + 1) * dimensions), next * dimensions);
      scales[next] = vectors.scales[row] as number;
      ordinals[next++] = ordinal;
    }
  }
  return { part: -1, vectors: { dimensions, count, encoding, values, scales }, ordinals, gathered: true };
}

/**
 * Exact top `k` live rows by similarity (above 0), best first, ties to the lower ordinal; with `allowed`,
 * among the allowed rows alone: the hits one table of the live rows gives.
 */
export function searchComposedVectors(composed: ComposedVectors, query: Float32Array, k: number, allowed?: AllowedSet): VectorHit[] {
  if (query.length !== composed.dimensions) throw new RangeError(`query has ${query.length} dimensions, expected ${composed.dimensions}`);
  if (k < 1 || (allowed && allowed.count === 0)) return [];
  const hits: VectorHit[] = [];
  for (const part of composed.searched) {
    const rows = allowed ? allowedRows(composed, part, allowed) : part.rows;
    if (rows && rows.length === 0) continue;
    for (const hit of searchExact(part.vectors, query, k, rows))
      hits.push({ ordinal: part.ordinals[hit.ordinal] as number, score: hit.score });
  }
  return hits.sort((a, b) => b.score - a.score || a.ordinal - b.ordinal).slice(0, k);
}

/** Dot product of `query` with the row of composed ordinal `ordinal` (0 when it has none). */
export function composedRowScore(composed: ComposedVectors, ordinal: number, query: Float32Array): number {
  const segment = composed.segments[composed.partOf[ordinal] ?? -1];
  return segment ? rowScore(segment, composed.rowIn[ordinal] as number, query) : 0;
}

/** The part's rows among the allowed ordinals, ascending. */
function allowedRows(composed: ComposedVectors, part: SearchPart, allowed: AllowedSet): Int32Array {
  const { ordinals } = allowed;
  if (part.gathered) {
    const rows: number[] = [];
    for (let row = 0; row < part.ordinals.length; row++) if (allowed.mask[part.ordinals[row] as number] === 1) rows.push(row);
    return Int32Array.from(rows);
  }
  const first = part.rows ? (part.ordinals[part.rows[0] as number] as number) : (part.ordinals[0] as number);
  const last = part.rows
    ? (part.ordinals[part.rows[part.rows.length - 1] as number] as number)
    : (part.ordinals[part.ordinals.length - 1] as number);
  const from = lowerBound(ordinals, first);
  const to = lowerBound(ordinals, last + 1);
  const rows = new Int32Array(to - from);
  for (let i = from; i < to; i++) rows[i - from] = composed.rowIn[ordinals[i] as number] as number;
  return rows;
}

/** The first index of ascending `list` holding a value ≥ `value`. */
function lowerBound(list: Int32Array, value: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((list[middle] as number) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
