/**
 * Exact top-k over int8 rows with the SIMD kernel (int8-dot-kernel.ts), in two steps:
 *
 * 1. Bound. The query q is quantized to int16: q = step × q' + e. The kernel gives every row's exact
 *    integer dot product with q', so a row's approximate score a = scale × step × dot differs from its
 *    exact score s = scale × (row · q) by scale × (row · e), at most E = N × ‖e‖ (Cauchy–Schwarz; N is
 *    the segment's largest scale × ‖row‖, about 1 for unit vectors), plus float rounding, which a
 *    1e-9 relative margin covers.
 * 2. Rescore. With a_k the k-th largest approximate score, k rows have s ≥ a_k − E, so each row of the
 *    exact top k has s ≥ a_k − E, hence a ≥ a_k − 2E. Only those candidates (little more than k: with a
 *    15-bit query, E is ~1e-5) get their exact score, by exact-scan.ts's arithmetic, and are ranked as the
 *    full scan ranks them: similarity > 0, higher score first, then lower ordinal.
 *
 * So hits and scores equal `searchExactScan`'s bit for bit, in about a tenth of its time at 100,000 rows.
 * With `rows` (a filter's allowed ordinals, ascending), the same over those rows alone: the kernel runs
 * over them only, and the hits are the full scan's hits among them, in the same order with the same scores.
 */
import { int8RowDot, paddedQuery } from './exact-scan';
import type { Int8DotKernel } from './int8-dot-kernel';
import type { VectorHit, VectorSegment } from './vector-segment';

/** Relative margin for float rounding in the exact scores and in the bound itself. */
const ROUNDING_MARGIN = 1e-9;
/** Largest |row value| assumed when sizing the query's range (int8 allows -128). */
const ROW_LIMIT = 128;

/**
 * Exact top `k` of `segment` (int8 rows, bound to `kernel`; only `rows` when given) for `query`, best first; null when the bound
 * cannot be trusted (a non-finite query value or scale, an unusual `k`), and the caller should scan.
 */
export function searchInt8Bounded(
  segment: VectorSegment,
  kernel: Int8DotKernel,
  query: Float32Array,
  k: number,
  rows?: Int32Array,
): VectorHit[] | null {
  const rowNorm = largestRowNorm(segment);
  const range = Math.min(32_767, Math.floor(0x7fffffff / (ROW_LIMIT * segment.dimensions)));
  if (!Number.isFinite(rowNorm) || !Number.isInteger(k) || k < 1 || range < 1) return null;
  const quantized = quantizeQuery(query, kernel.query, range);
  if (!quantized) return null;
  if (quantized.step === 0) return [];
  const dots = kernel.run(rows);
  const bound = (rowNorm * (quantized.errorNorm + ROUNDING_MARGIN * quantized.norm)) / quantized.step;
  if (rows) {
    const threshold = kthLargestAmong(dots, segment.scales, k, rows) - 2 * bound;
    return rescore(segment, query, candidatesAmong(dots, segment.scales, threshold, rows), k);
  }
  return rescore(segment, query, candidatesNearTop(dots, segment.scales, k, 2 * bound), k);
}

interface QuantizedQuery {
  /** The quantization step (0 for an all-zero query). */
  step: number;
  /** ‖q − step × q'‖ and ‖q‖. */
  errorNorm: number;
  norm: number;
}

/** Writes round(q / step) to `out` with step = max|q| / range; null when a value is not finite. */
function quantizeQuery(query: Float32Array, out: Int16Array, range: number): QuantizedQuery | null {
  let largest = 0;
  for (const value of query) {
    if (!Number.isFinite(value)) return null;
    largest = Math.max(largest, Math.abs(value));
  }
  const step = largest / range;
  let errorSquares = 0;
  let squares = 0;
  for (let index = 0; index < query.length; index++) {
    const value = query[index] as number;
    const level = step === 0 ? 0 : Math.max(-range, Math.min(range, Math.round(value / step)));
    out[index] = level;
    errorSquares += (value - step * level) ** 2;
    squares += value * value;
  }
  return { step, errorNorm: Math.sqrt(errorSquares), norm: Math.sqrt(squares) };
}

/**
 * The rows whose `dot × scale` is at least the k-th largest less `margin` (every row when there are fewer
 * than k), in one pass: a min-heap of size k keeps the k-th largest so far, which only rises, so a row
 * within `margin` of the final one was within `margin` of it when scanned. The rows kept so are sifted
 * against the final k-th largest at the end. Rows are read four at a time: when none of the four reaches
 * the floor (nearly always), they are passed over with one test; else each is taken in order as alone.
 */
function candidatesNearTop(dots: Int32Array, scales: Float32Array, k: number, margin: number): number[] {
  const count = dots.length;
  if (count < k) return Array.from(dots.keys());
  const near = new NearTop(dots, scales, k, margin);
  let row = k;
  for (; row + 3 < count; row += 4) {
    const floor = near.floor;
    if (
      (dots[row] as number) * (scales[row] as number) < floor &&
      (dots[row + 1] as number) * (scales[row + 1] as number) < floor &&
      (dots[row + 2] as number) * (scales[row + 2] as number) < floor &&
      (dots[row + 3] as number) * (scales[row + 3] as number) < floor
    ) {
      continue;
    }
    for (let each = row; each < row + 4; each++) near.offer(each);
  }
  for (; row < count; row++) near.offer(row);
  return near.candidates();
}

/** Rows kept by `NearTop` while it scans, reused from query to query (a scan is synchronous). */
let keptRows = new Int32Array(0);

/** The scan state of `candidatesNearTop`: the heap of the k largest so far, the floor, the rows kept. */
class NearTop {
  private readonly heap: Float64Array;
  private readonly kept: Int32Array;
  private keptCount = 0;
  private kth: number;
  /** The k-th largest so far less the margin: rows below it are not kept. */
  floor: number;

  constructor(
    private readonly dots: Int32Array,
    private readonly scales: Float32Array,
    k: number,
    private readonly margin: number,
  ) {
    this.heap = new Float64Array(k);
    for (let row = 0; row < k; row++) this.heap[row] = (dots[row] as number) * (scales[row] as number);
    this.heap.sort();
    this.kth = this.heap[0] as number;
    this.floor = this.kth - margin;
    if (keptRows.length < dots.length) keptRows = new Int32Array(dots.length);
    this.kept = keptRows;
    for (let row = 0; row < k; row++) this.kept[this.keptCount++] = row;
  }

  /** Keeps `row` when it reaches the floor, raising the k-th largest when it passes it. */
  offer(row: number): void {
    const value = (this.dots[row] as number) * (this.scales[row] as number);
    if (value < this.floor) return;
    this.kept[this.keptCount++] = row;
    if (value > this.kth) {
      replaceSmallest(this.heap, value);
      this.kth = this.heap[0] as number;
      this.floor = this.kth - this.margin;
    }
  }

  /** The kept rows that reach the final floor, ascending. */
  candidates(): number[] {
    const found: number[] = [];
    for (let index = 0; index < this.keptCount; index++) {
      const row = this.kept[index] as number;
      if ((this.dots[row] as number) * (this.scales[row] as number) >= this.floor) found.push(row);
    }
    return found;
  }
}

/** The k-th largest `dot × scale` among `rows` (the rows a filter allows; their dots alone are current), −∞ when fewer. */
function kthLargestAmong(dots: Int32Array, scales: Float32Array, k: number, rows: Int32Array): number {
  if (rows.length < k) return Number.NEGATIVE_INFINITY;
  const heap = new Float64Array(k);
  for (let i = 0; i < k; i++) heap[i] = (dots[rows[i] as number] as number) * (scales[rows[i] as number] as number);
  heap.sort();
  for (let i = k; i < rows.length; i++) {
    const row = rows[i] as number;
    const value = (dots[row] as number) * (scales[row] as number);
    if (value > (heap[0] as number)) replaceSmallest(heap, value);
  }
  return heap[0] as number;
}

/** Replaces the root of the min-heap `heap` with `value` and restores the heap. */
function replaceSmallest(heap: Float64Array, value: number): void {
  let parent = 0;
  for (;;) {
    let child = 2 * parent + 1;
    if (child >= heap.length) break;
    if (child + 1 < heap.length && (heap[child + 1] as number) < (heap[child] as number)) child++;
    if ((heap[child] as number) >= value) break;
    heap[parent] = heap[child] as number;
    parent = child;
  }
  heap[parent] = value;
}

function candidatesAmong(dots: Int32Array, scales: Float32Array, threshold: number, rows: Int32Array): number[] {
  const found: number[] = [];
  for (const row of rows) if ((dots[row] as number) * (scales[row] as number) >= threshold) found.push(row);
  return found;
}

function rescore(segment: VectorSegment, query: Float32Array, rows: readonly number[], k: number): VectorHit[] {
  const { values, scales, dimensions } = segment;
  if (!(values instanceof Int8Array)) throw new TypeError('int8 rows expected');
  const padded = paddedQuery(query);
  const hits: VectorHit[] = [];
  for (const row of rows) {
    const score = int8RowDot(values, row * dimensions, padded, dimensions) * (scales[row] as number);
    if (score > 0) hits.push({ ordinal: row, score });
  }
  return hits.sort((a, b) => b.score - a.score || a.ordinal - b.ordinal).slice(0, k);
}

const rowNorms = new WeakMap<VectorSegment, number>();

/** max over rows of |scale| × ‖row‖ (NaN when a scale is not finite), computed once per segment. */
function largestRowNorm(segment: VectorSegment): number {
  let largest = rowNorms.get(segment);
  if (largest === undefined) rowNorms.set(segment, (largest = computeLargestRowNorm(segment)));
  return largest;
}

/**
 * Records the largest row norm of a segment made of rows of `parts` (a composed version's): the largest
 * of theirs, each computed once per part. An upper bound (tombstoned rows are left out) is all the bound
 * needs, so a new version of a memory costs no pass over the rows of the segments it keeps.
 */
export function inheritLargestRowNorm(composed: VectorSegment, parts: readonly VectorSegment[]): void {
  let largest = 0;
  for (const part of parts) largest = Math.max(largest, largestRowNorm(part));
  rowNorms.set(composed, largest);
}

function computeLargestRowNorm(segment: VectorSegment): number {
  const { values, scales, dimensions, count } = segment;
  let largest = 0;
  for (let row = 0, offset = 0; row < count; row++, offset += dimensions) {
    const scale = scales[row] as number;
    if (!Number.isFinite(scale)) return Number.NaN;
    let squares = 0;
    for (let index = offset; index < offset + dimensions; index++) squares += (values[index] as number) ** 2;
    largest = Math.max(largest, Math.abs(scale) * Math.sqrt(squares));
  }
  return largest;
}
