/**
 * One query term's postings in one lexical field, read where they lie: a plain segment's varint list, or
 * a composed segment's lists in its parts (or gathered groups, segment-gather.ts) mapped to composed
 * ordinals. What the pruned top-N (lexical-top-n.ts) needs of them: score every posting into
 * accumulators, score the postings of marked docs only, and one doc's frequency by its skip block
 * (posting-skips.ts). Postings of deleted docs are passed over, as `termPostings` does.
 */
import { freqOf, PairReader, termSkips, type TermSkips } from '../lexical/posting-skips';
import { type LexicalSegment, type SegmentPart, termDocFreq, termOrdinal, termPostings } from '../lexical/segment';
import { termContribution } from './lexical-scorer';

export interface TermLists {
  /** Live docs holding the term (its BM25 document frequency). */
  readonly docFreq: number;
  /** The largest `tf / (tf + norm)` of its postings for the field's `norms` (what bounds a doc's contribution). */
  maxRatio(norms: Float64Array): number;
  /** The term's frequency in composed doc `ordinal` (0 when absent or deleted). */
  freqOf(ordinal: number): number;
  /**
   * Adds every live posting's contribution to `scores`, appending each doc first scored (still 0) to
   * `touched` after its `seen` first entries; returns the new count.
   */
  accumulate(weight: number, norms: Float64Array, scores: Float64Array, touched: Uint32Array, seen: number): number;
  /** Adds the contributions of the postings of docs marked 1 in `marks` only. */
  accumulateMarked(weight: number, norms: Float64Array, scores: Float64Array, marks: Uint8Array): void;
}

/** One plain segment's list of the term, its docs mapped to composed ordinals by `map` (identity when null). */
interface PlainList {
  segment: LexicalSegment;
  ordinal: number;
  skips: TermSkips;
  map: Int32Array | null;
}

/** The lists of `term` in a field `segment`. */
export function termLists(segment: LexicalSegment, term: string): TermLists {
  const parts = segment.searched ?? segment.parts;
  if (!parts) return new EncodedLists(termDocFreq(segment, term), [plainList(segment, term, null)], null);
  if (parts.some((part) => part.segment.parts)) return decodedLists(segment, term);
  const lists = parts.map((part) => plainList(part.segment, term, part.ordinals));
  return new EncodedLists(termDocFreq(segment, term), lists, inverseMap(segment, parts));
}

function plainList(segment: LexicalSegment, term: string, map: Int32Array | null): PlainList | null {
  const ordinal = termOrdinal(segment, term);
  return ordinal < 0 ? null : { segment, ordinal, skips: termSkips(segment, ordinal), map };
}

/** Composed ordinal → the part holding it and its ordinal there (-1 for none). */
interface InverseMap {
  part: Int32Array;
  local: Int32Array;
}

const inverseMaps = new WeakMap<readonly SegmentPart[], InverseMap>();

function inverseMap(segment: LexicalSegment, parts: readonly SegmentPart[]): InverseMap {
  let inverse = inverseMaps.get(parts);
  if (inverse) return inverse;
  inverse = { part: new Int32Array(segment.docIds.length).fill(-1), local: new Int32Array(segment.docIds.length) };
  parts.forEach(({ ordinals }, p) => {
    for (let local = 0; local < ordinals.length; local++) {
      const composed = ordinals[local] as number;
      if (composed < 0) continue;
      (inverse as InverseMap).part[composed] = p;
      (inverse as InverseMap).local[composed] = local;
    }
  });
  inverseMaps.set(parts, inverse);
  return inverse;
}

class EncodedLists implements TermLists {
  constructor(
    readonly docFreq: number,
    private readonly lists: ReadonlyArray<PlainList | null>,
    private readonly inverse: InverseMap | null,
  ) {}

  maxRatio(norms: Float64Array): number {
    return this.lists.reduce((most, list) => (list ? Math.max(most, listMaxRatio(list, norms)) : most), 0);
  }

  freqOf(ordinal: number): number {
    if (!this.inverse) {
      const list = this.lists[0];
      return list ? freqOf(list.segment, list.skips, ordinal) : 0;
    }
    const part = this.inverse.part[ordinal] as number;
    const list = part < 0 ? null : this.lists[part];
    return list ? freqOf(list.segment, list.skips, this.inverse.local[ordinal] as number) : 0;
  }

  accumulate(weight: number, norms: Float64Array, scores: Float64Array, touched: Uint32Array, seen: number): number {
    let count = seen;
    for (const list of this.lists) {
      if (list) count = accumulateList(list, weight, norms, scores, touched, count);
    }
    return count;
  }

  accumulateMarked(weight: number, norms: Float64Array, scores: Float64Array, marks: Uint8Array): void {
    for (const list of this.lists) if (list) accumulateMarkedList(list, weight, norms, scores, marks);
  }
}

/** Each list's largest ratio, by its skip data (one per plain segment and term) and the field's norms. */
const maxRatios = new WeakMap<TermSkips, WeakMap<Float64Array, number>>();

/**
 * The largest `tf / (tf + norm)` of a list's live postings, worked out once per list and field (the
 * term's exact score bound, as Lucene's impacts and PISA's max scores give it).
 */
function listMaxRatio(list: PlainList, norms: Float64Array): number {
  let byNorms = maxRatios.get(list.skips);
  if (!byNorms) maxRatios.set(list.skips, (byNorms = new WeakMap()));
  let most = byNorms.get(norms);
  if (most === undefined) {
    most = 0;
    const reader = new PairReader(list.segment.postings, list.segment.postingOffsets[list.ordinal] as number, 0);
    for (let i = 0; i < list.skips.count; i++) {
      reader.next();
      const doc = list.map ? (list.map[reader.doc] as number) : reader.doc;
      if (doc >= 0) most = Math.max(most, reader.freq / (reader.freq + (norms[doc] as number)));
    }
    byNorms.set(norms, most);
  }
  return most;
}

/** Decodes a list (varints inline: one-byte ones are most) and scores every live posting. */
function accumulateList(list: PlainList, weight: number, norms: Float64Array, scores: Float64Array, touched: Uint32Array, seen: number): number {
  const bytes = list.segment.postings;
  const map = list.map;
  const pairs = list.skips.count;
  let position = list.segment.postingOffsets[list.ordinal] as number;
  let count = seen;
  let local = 0;
  for (let i = 0; i < pairs; i++) {
    let byte = bytes[position++] as number;
    let value = byte & 0x7f;
    for (let scale = 0x80; byte >= 0x80; scale *= 0x80) {
      byte = bytes[position++] as number;
      value += (byte & 0x7f) * scale;
    }
    local += value;
    byte = bytes[position++] as number;
    let freq = byte & 0x7f;
    for (let scale = 0x80; byte >= 0x80; scale *= 0x80) {
      byte = bytes[position++] as number;
      freq += (byte & 0x7f) * scale;
    }
    const doc = map ? (map[local] as number) : local;
    if (doc < 0) continue;
    const before = scores[doc] as number;
    if (before === 0) touched[count++] = doc;
    scores[doc] = before + termContribution(weight, freq, norms[doc] as number);
  }
  return count;
}

function accumulateMarkedList(list: PlainList, weight: number, norms: Float64Array, scores: Float64Array, marks: Uint8Array): void {
  const bytes = list.segment.postings;
  const map = list.map;
  const pairs = list.skips.count;
  let position = list.segment.postingOffsets[list.ordinal] as number;
  let local = 0;
  for (let i = 0; i < pairs; i++) {
    let byte = bytes[position++] as number;
    let value = byte & 0x7f;
    for (let scale = 0x80; byte >= 0x80; scale *= 0x80) {
      byte = bytes[position++] as number;
      value += (byte & 0x7f) * scale;
    }
    local += value;
    byte = bytes[position++] as number;
    let freq = byte & 0x7f;
    for (let scale = 0x80; byte >= 0x80; scale *= 0x80) {
      byte = bytes[position++] as number;
      freq += (byte & 0x7f) * scale;
    }
    const doc = map ? (map[local] as number) : local;
    if (doc >= 0 && marks[doc] === 1) scores[doc] = (scores[doc] as number) + termContribution(weight, freq, norms[doc] as number);
  }
}

/** A composed segment whose parts are composed themselves: the merged list, decoded (no skip data). */
function decodedLists(segment: LexicalSegment, term: string): TermLists {
  const { docs, freqs } = termPostings(segment, term);
  const freqAt = (ordinal: number): number => {
    let low = 0;
    let high = docs.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const doc = docs[middle] as number;
      if (doc === ordinal) return freqs[middle] as number;
      if (doc < ordinal) low = middle + 1;
      else high = middle - 1;
    }
    return 0;
  };
  return {
    docFreq: docs.length,
    maxRatio: (norms) => docs.reduce((most, doc, i) => Math.max(most, (freqs[i] as number) / ((freqs[i] as number) + (norms[doc] as number))), 0),
    freqOf: freqAt,
    accumulate(weight, norms, scores, touched, seen) {
      let count = seen;
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i] as number;
        const before = scores[doc] as number;
        if (before === 0) touched[count++] = doc;
        scores[doc] = before + termContribution(weight, freqs[i] as number, norms[doc] as number);
      }
      return count;
    },
    accumulateMarked(weight, norms, scores, marks) {
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i] as number;
        if (marks[doc] === 1) scores[doc] = (scores[doc] as number) + termContribution(weight, freqs[i] as number, norms[doc] as number);
      }
    },
  };
}
