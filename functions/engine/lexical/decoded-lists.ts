/**
 * Decoded posting lists kept across queries: a plain segment's varint list of a term (postings.ts),
 * decoded on first use and kept while it is among the most recently used within a byte budget
 * (`DECODED_LIST_BUDGET_BYTES`, least recently used dropped first). Segments are immutable, so a kept
 * list never goes stale. A warm query then reads its terms' lists as arrays: no varint decoding, and a
 * doc's frequency found by binary search, so the pruned top-N (retrieval/lexical-top-n.ts) can look a
 * few docs up in a long list instead of reading it through (what Lucene's skip lists and PISA's block
 * codecs give a reader of compressed lists; here the lists are small enough to keep decoded).
 *
 * Memory: 8 bytes a posting kept. At the latency bench's 100,160 chunks every list of both fields decoded
 * is 16.8 MiB (4.7 MiB as varints); the 809 SciFact claims use 3,826 terms, 7.9 MiB of lists. A memory
 * ten times larger keeps its most used lists and decodes the others again when asked.
 */
import { type DecodedPostings, decodePostings } from './postings';
import type { LexicalSegment } from './segment';

/** What the kept lists may take, in bytes. */
const DECODED_LIST_BUDGET_BYTES = 64 * 1024 * 1024;

const listsBySegment = new WeakMap<LexicalSegment, Map<number, DecodedPostings>>();
/** Kept lists, least recently used first, each with the map it is kept in and its term ordinal there. */
const recency = new Map<DecodedPostings, { kept: Map<number, DecodedPostings>; ordinal: number }>();
let keptBytes = 0;

/** The decoded list of term `ordinal` of a plain `segment`, kept for the next queries. */
export function decodedList(segment: LexicalSegment, ordinal: number): DecodedPostings {
  let kept = listsBySegment.get(segment);
  if (!kept) listsBySegment.set(segment, (kept = new Map()));
  let list = kept.get(ordinal);
  if (list) {
    recency.delete(list);
    recency.set(list, { kept, ordinal });
    return list;
  }
  const from = segment.postingOffsets[ordinal] ?? 0;
  list = decodePostings(segment.postings, from, segment.postingOffsets[ordinal + 1] ?? from, segment.docFreqs[ordinal] ?? 0);
  kept.set(ordinal, list);
  recency.set(list, { kept, ordinal });
  keptBytes += bytesOf(list);
  while (keptBytes > DECODED_LIST_BUDGET_BYTES && recency.size > 1) dropOldest();
  return list;
}

function dropOldest(): void {
  const [list, where] = recency.entries().next().value as [DecodedPostings, { kept: Map<number, DecodedPostings>; ordinal: number }];
  recency.delete(list);
  where.kept.delete(where.ordinal);
  keptBytes -= bytesOf(list);
}

const bytesOf = (list: DecodedPostings): number => list.docs.byteLength + list.freqs.byteLength;

/** The frequency of `doc` in a decoded list (0 when absent): binary search over its ascending docs. */
export function freqIn(list: DecodedPostings, doc: number): number {
  const { docs } = list;
  let low = 0;
  let high = docs.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = docs[middle] as number;
    if (found === doc) return list.freqs[middle] as number;
    if (found < doc) low = middle + 1;
    else high = middle - 1;
  }
  return 0;
}
