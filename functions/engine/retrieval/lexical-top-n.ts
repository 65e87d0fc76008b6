/**
 * The lexical list of a query: the top `n` docs by BM25 summed over fields (text, title), with the
 * exhaustive scorer's scores to the bit and its order (higher score, then lower ordinal), found without
 * scoring every posting. Dynamic pruning in the manner of MaxScore (Turtle & Flood 1995; Lucene's
 * MaxScoreBulkScorer, PISA's maxscore): each (field, term) has an upper bound on what it adds to a doc
 * (`weight × max tf / (tf + norm)` over its postings, worked out once per list and field, as Lucene's
 * impacts and PISA's precomputed max scores give it).
 * Terms are taken best bound first, term at a time, into accumulators (rare terms first: short lists).
 * Once the bounds of the terms left sum below the n-th best partial score, no doc not yet seen can
 * enter the top n (Lucene's "non-essential" terms; Tantivy's block_wand.rs skips the same way), so the
 * terms left are only looked up for the docs still in reach, each by a binary search of the list (kept
 * decoded, lexical/decoded-lists.ts) when they are few, or by one pass over it when they are many; a doc
 * is dropped once its partial score plus the bounds left falls below the n-th best. The docs left are scored again exactly, term by term
 * in the exhaustive order (`addBm25Scores` in lexical-scorer.ts), so the scores are the same bits, and
 * the comparisons against the bounds keep a relative margin (`MARGIN`) for rounding.
 *
 * `scoreOf` gives the exact score of any doc (fusion asks it for candidates of other lists) by one
 * lookup per term. The accumulators are kept per field segment and reused (left zeroed): a ranking is
 * synchronous, and `scoreOf` does not use them.
 *
 * On SciFact claims over the latency bench's 100k chunks, the rare terms (about a third of the postings)
 * are scored in full, then the docs in reach are a few thousand and the one or two common terms left are
 * mostly read through for them alone; about 100 docs are scored exactly (bench/lexical-micro.ts).
 */
import type { LexicalSegment } from '../lexical/segment';
import type { Scored } from './fuse';
import { bm25TermWeight, type FieldParams, lengthNorms, termContribution, type WeightedTerms } from './lexical-scorer';
import { type TermLists, termLists } from './term-lists';
import { nthLargest, topByScore } from './top-scores';

/** One field of the lexical score: BM25 of `segment` with `params`, times `scale`. */
export interface ScoredField {
  segment: LexicalSegment;
  params: FieldParams;
  scale: number;
}

export interface LexicalRanking {
  /** The best `n` docs with a positive score (allowed ones only), best first. */
  hits: Scored[];
  /** The exact score of any doc (0 for one not allowed). */
  scoreOf: (ordinal: number) => number;
}

/** Relative slack on every comparison with a bound or a threshold: far above rounding error (~1e-15). */
const MARGIN = 1e-9;

/** One (field, term) of the query. */
interface Entry {
  lists: TermLists;
  norms: Float64Array;
  weight: number;
  bound: number;
}

interface Buffers {
  scores: Float64Array;
  touched: Uint32Array;
  inReach: Uint8Array;
}

const buffersBySegment = new WeakMap<LexicalSegment, Buffers>();

/**
 * The top `n` docs of `fields` (all over the same docs) for `terms`, and every doc's exact score. With
 * `allowed` (1 = may be answered), other docs neither rank nor score.
 */
export function lexicalTopN(fields: readonly ScoredField[], terms: WeightedTerms, n: number, allowed?: Uint8Array): LexicalRanking {
  const entries = queryEntries(fields, terms);
  const scoreOf = (ordinal: number): number => (allowed && allowed[ordinal] !== 1 ? 0 : exactScore(entries, ordinal));
  const first = fields[0]?.segment;
  if (!first || entries.length === 0 || n < 1) return { hits: [], scoreOf };
  const buffers = buffersOf(first);
  const found = candidates(entries, n, buffers, allowed);
  const exact = found.map((ordinal) => ({ ordinal, score: exactScore(entries, ordinal) }));
  return { hits: topByScore(exact, n), scoreOf };
}

/** The (field, term) entries in the exhaustive scorer's order: fields in order, terms in query order. */
function queryEntries(fields: readonly ScoredField[], terms: WeightedTerms): Entry[] {
  const entries: Entry[] = [];
  for (const { segment, params, scale } of fields) {
    const docCount = segment.docIds.length;
    if (docCount === 0 || scale === 0) continue;
    const norms = lengthNorms(segment, params);
    const leastNorm = minimum(norms);
    for (const [term, count] of terms) {
      if (count === 0) continue;
      const lists = termLists(segment, term);
      if (lists.docFreq === 0) continue;
      const weight = bm25TermWeight(docCount, lists.docFreq, count, params, scale);
      const bound = leastNorm >= 0 ? weight * lists.maxRatio(norms) : Number.POSITIVE_INFINITY;
      entries.push({ lists, norms, weight, bound });
    }
  }
  return entries;
}

/** A doc's score summed in the exhaustive order (same additions, same bits). */
function exactScore(entries: readonly Entry[], ordinal: number): number {
  let score = 0;
  for (const { lists, norms, weight } of entries) {
    const freq = lists.freqOf(ordinal);
    if (freq > 0) score += termContribution(weight, freq, norms[ordinal] as number);
  }
  return score;
}

/**
 * The allowed docs that may be among the top `n` (a superset of them, about `n` docs), by term-at-a-time
 * scoring with MaxScore pruning. Leaves the buffers clean.
 */
function candidates(entries: readonly Entry[], n: number, buffers: Buffers, allowed?: Uint8Array): number[] {
  const { scores, touched } = buffers;
  const order = entries.map((_, index) => index).sort((a, b) => (entries[b] as Entry).bound - (entries[a] as Entry).bound || a - b);
  // after[i]: the bounds of the entries taken after the i-th (0 after the last); before[i]: of it and those before
  const after = new Float64Array(order.length);
  for (let i = order.length - 2; i >= 0; i--) after[i] = (after[i + 1] as number) + (entries[order[i + 1] as number] as Entry).bound;
  let before = 0;
  let seen = 0;
  let reach: number[] | undefined;
  order.forEach((index, i) => {
    const entry = entries[index] as Entry;
    const left = after[i] as number;
    before += entry.bound;
    if (reach) {
      addToReach(entry, reach, buffers);
      reach = keepInReach(reach, scores, left, nthLargest(scores, reach, n));
      return;
    }
    seen = entry.lists.accumulate(entry.weight, entry.norms, scores, touched, seen);
    // the n-th best partial score is at most the bounds taken so far: only then can it pass the bounds left
    const last = i === order.length - 1;
    if (!last && left * (1 + MARGIN) >= before) return;
    const allowedSeen = allowedDocs(touched, seen, allowed);
    const threshold = nthLargest(scores, allowedSeen, n);
    if (last || (threshold > 0 && left * (1 + MARGIN) < threshold)) reach = keepInReach(allowedSeen, scores, left, threshold);
  });
  const found = reach ?? [];
  for (let i = 0; i < seen; i++) scores[touched[i] as number] = 0;
  return found;
}

/** The docs of `docs` whose partial score plus `left` may still reach `threshold`. */
function keepInReach(docs: ArrayLike<number>, scores: Float64Array, left: number, threshold: number): number[] {
  const kept: number[] = [];
  for (let i = 0; i < docs.length; i++) {
    const doc = docs[i] as number;
    if (threshold <= 0 || ((scores[doc] as number) + left) * (1 + MARGIN) >= threshold) kept.push(doc);
  }
  return kept;
}

/** Adds an entry's contributions to the docs in reach only: by lookups when they are few, else one pass over its lists. */
function addToReach(entry: Entry, reach: readonly number[], { scores, inReach }: Buffers): void {
  const { lists, norms, weight } = entry;
  if (reach.length * LOOKUP_COST < lists.docFreq) {
    for (const doc of reach) {
      const freq = lists.freqOf(doc);
      if (freq > 0) scores[doc] = (scores[doc] as number) + termContribution(weight, freq, norms[doc] as number);
    }
    return;
  }
  for (const doc of reach) inReach[doc] = 1;
  lists.accumulateMarked(weight, norms, scores, inReach);
  for (const doc of reach) inReach[doc] = 0;
}

/** About how many postings one binary-search lookup costs, against reading a list through. */
const LOOKUP_COST = 8;

function allowedDocs(touched: Uint32Array, seen: number, allowed?: Uint8Array): ArrayLike<number> {
  if (!allowed) return touched.subarray(0, seen);
  const docs: number[] = [];
  for (let i = 0; i < seen; i++) {
    const doc = touched[i] as number;
    if (!allowed || allowed[doc] === 1) docs.push(doc);
  }
  return docs;
}

function buffersOf(segment: LexicalSegment): Buffers {
  let buffers = buffersBySegment.get(segment);
  const size = segment.docIds.length;
  if (!buffers) {
    buffers = { scores: new Float64Array(size), touched: new Uint32Array(size), inReach: new Uint8Array(size) };
    buffersBySegment.set(segment, buffers);
  }
  return buffers;
}

const leastNorms = new WeakMap<Float64Array, number>();

/** The least of a field's norms (kept per norms array: they are kept per segment and parameters). */
function minimum(values: Float64Array): number {
  let least = leastNorms.get(values);
  if (least === undefined) {
    least = Number.POSITIVE_INFINITY;
    for (let i = 0; i < values.length; i++) if ((values[i] as number) < least) least = values[i] as number;
    leastNorms.set(values, least);
  }
  return least;
}
