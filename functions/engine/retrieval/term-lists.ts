/**
 * One query term's postings in one lexical field, read where they lie: a plain segment's list, or a
 * composed segment's lists in its parts (or gathered groups, segment-gather.ts) mapped to composed
 * ordinals, each list decoded once and kept (lexical/decoded-lists.ts). What the pruned top-N
 * (lexical-top-n.ts) needs of them: score every posting into accumulators, score the postings of marked
 * docs only, and one doc's frequency. Postings of deleted docs are passed over, as `termPostings` does.
 */
import { decodedList, freqIn } from '../lexical/decoded-lists';
import type { DecodedPostings } from '../lexical/postings';
import { type LexicalSegment, type SegmentPart, termOrdinal, termPostings } from '../lexical/segment';
import { termContribution } from './lexical-scorer';

/** One list of the term, its docs mapped to composed ordinals by `map` (identity when null). */
interface PartList {
  list: DecodedPostings;
  map: Int32Array | null;
}

/** The lists of `term` in a field `segment`. */
export function termLists(segment: LexicalSegment, term: string): TermLists {
  const parts = segment.searched ?? segment.parts;
  if (!parts) return new TermLists([plainList(segment, term, null)], null);
  // parts composed themselves (not made by compose-index.ts): the merged list, decoded for this query
  if (parts.some((part) => part.segment.parts)) return new TermLists([{ list: termPostings(segment, term), map: null }], null);
  return new TermLists(
    parts.map((part) => plainList(part.segment, term, part.ordinals)),
    inverseMap(segment, parts),
  );
}

function plainList(segment: LexicalSegment, term: string, map: Int32Array | null): PartList | null {
  const ordinal = ordinalOf(segment, term);
  return ordinal < 0 ? null : { list: decodedList(segment, ordinal), map };
}

/** Each plain segment's query terms looked up so far → their ordinal (-1: absent). */
const ordinalsBySegment = new WeakMap<LexicalSegment, Map<string, number>>();

/** `termOrdinal`, kept per segment and term: a composed field looks a term up in every part, every query. */
function ordinalOf(segment: LexicalSegment, term: string): number {
  let ordinals = ordinalsBySegment.get(segment);
  if (!ordinals) ordinalsBySegment.set(segment, (ordinals = new Map()));
  let ordinal = ordinals.get(term);
  if (ordinal === undefined) ordinals.set(term, (ordinal = termOrdinal(segment, term)));
  return ordinal;
}

/** Composed ordinal → the part holding it and its ordinal there (-1 for none). */
interface InverseMap {
  part: Int32Array;
  local: Int32Array;
}

const inverseMaps = new WeakMap<readonly SegmentPart[], InverseMap>();

function inverseMap(segment: LexicalSegment, parts: readonly SegmentPart[]): InverseMap {
  const known = inverseMaps.get(parts);
  if (known) return known;
  const inverse = { part: new Int32Array(segment.docIds.length).fill(-1), local: new Int32Array(segment.docIds.length) };
  parts.forEach(({ ordinals }, p) => {
    for (let local = 0; local < ordinals.length; local++) {
      const composed = ordinals[local] as number;
      if (composed < 0) continue;
      inverse.part[composed] = p;
      inverse.local[composed] = local;
    }
  });
  inverseMaps.set(parts, inverse);
  return inverse;
}

export class TermLists {
  /** Live docs holding the term (its BM25 document frequency). */
  readonly docFreq: number;

  constructor(
    private readonly lists: ReadonlyArray<PartList | null>,
    private readonly inverse: InverseMap | null,
  ) {
    this.docFreq = lists.reduce((sum, part) => sum + (part ? liveCount(part) : 0), 0);
  }

  /** The largest `tf / (tf + norm)` of its live postings for the field's `norms` (what bounds a doc's contribution). */
  maxRatio(norms: Float64Array): number {
    return this.lists.reduce((most, part) => (part ? Math.max(most, listMaxRatio(part, norms)) : most), 0);
  }

  /** The term's frequency in composed doc `ordinal` (0 when absent or deleted). */
  freqOf(ordinal: number): number {
    if (!this.inverse) {
      const part = this.lists[0];
      return part ? freqIn(part.list, ordinal) : 0;
    }
    const index = this.inverse.part[ordinal] as number;
    const part = index < 0 ? null : this.lists[index];
    return part ? freqIn(part.list, this.inverse.local[ordinal] as number) : 0;
  }

  /**
   * Adds every live posting's contribution to `scores`, appending each doc first scored (still 0) to
   * `touched` after its `seen` first entries; returns the new count.
   */
  accumulate(weight: number, norms: Float64Array, scores: Float64Array, touched: Uint32Array, seen: number): number {
    let count = seen;
    for (const part of this.lists) {
      if (!part) continue;
      const { list, map } = part;
      const { docs, freqs } = list;
      for (let i = 0; i < docs.length; i++) {
        const doc = map ? (map[docs[i] as number] as number) : (docs[i] as number);
        if (doc < 0) continue;
        const before = scores[doc] as number;
        if (before === 0) touched[count++] = doc;
        scores[doc] = before + termContribution(weight, freqs[i] as number, norms[doc] as number);
      }
    }
    return count;
  }

  /** Adds the contributions of the postings of docs marked 1 in `marks` only. */
  accumulateMarked(weight: number, norms: Float64Array, scores: Float64Array, marks: Uint8Array): void {
    for (const part of this.lists) {
      if (!part) continue;
      const { list, map } = part;
      const { docs, freqs } = list;
      for (let i = 0; i < docs.length; i++) {
        const doc = map ? (map[docs[i] as number] as number) : (docs[i] as number);
        if (doc >= 0 && marks[doc] === 1)
          scores[doc] = (scores[doc] as number) + termContribution(weight, freqs[i] as number, norms[doc] as number);
      }
    }
  }
}

/** Per kept list: its largest ratio by field norms, and its live count by part map. */
const maxRatios = new WeakMap<DecodedPostings, WeakMap<Float64Array, number>>();
const liveCounts = new WeakMap<DecodedPostings, WeakMap<Int32Array, number>>();

/**
 * The largest `tf / (tf + norm)` of a list's live postings, worked out once per kept list and field (the
 * term's exact score bound, as Lucene's impacts and PISA's precomputed max scores give it).
 */
function listMaxRatio({ list, map }: PartList, norms: Float64Array): number {
  let byNorms = maxRatios.get(list);
  if (!byNorms) maxRatios.set(list, (byNorms = new WeakMap()));
  let most = byNorms.get(norms);
  if (most === undefined) {
    most = 0;
    for (let i = 0; i < list.docs.length; i++) {
      const doc = map ? (map[list.docs[i] as number] as number) : (list.docs[i] as number);
      const freq = list.freqs[i] as number;
      if (doc >= 0) most = Math.max(most, freq / (freq + (norms[doc] as number)));
    }
    byNorms.set(norms, most);
  }
  return most;
}

/** The live docs of a list (what `termDocFreq` of segment.ts counts), counted once per kept list and part map. */
function liveCount({ list, map }: PartList): number {
  if (!map) return list.docs.length;
  let byMap = liveCounts.get(list);
  if (!byMap) liveCounts.set(list, (byMap = new WeakMap()));
  let count = byMap.get(map);
  if (count === undefined) {
    count = 0;
    for (let i = 0; i < list.docs.length; i++) if ((map[list.docs[i] as number] as number) >= 0) count++;
    byMap.set(map, count);
  }
  return count;
}
