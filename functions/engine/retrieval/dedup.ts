/**
 * From fused chunk hits to payload items: overlapping chunks merged, duplicates dropped, topK kept.
 *
 * Walking the hits best first:
 * - a chunk of the same file whose character range overlaps an item already taken (the chunker's
 *   overlap) is merged into it: the item's content becomes the union of both texts, in file order,
 *   without repeating the shared part; the item keeps the better score;
 * - a chunk whose text duplicates a taken item's (≥ 80% of its case-folded word 5-grams inside one
 *   taken text: the same passage ingested twice, quoted or re-chunked) is dropped;
 * - otherwise it becomes a new item, until `topK` items are taken.
 */
import type { FusedHit } from './fuse';
import type { RetrievalIndex } from './retrieval-index';

/** One payload item with its provenance. */
export interface PayloadItem {
  content: string;
  score: number;
  fileId: string;
  /** Chunk ordinals merged into the item, best first. */
  ordinals: number[];
  /** Character range in the file's text (-1 when unknown). */
  start: number;
  end: number;
}

const NEAR_DUPLICATE = 0.8;
const SHINGLE = 5;

/** The first `topK` payload items of `hits` (best first). */
export function toPayloadItems(index: RetrievalIndex, hits: readonly FusedHit[], topK: number): PayloadItem[] {
  const items: PayloadItem[] = [];
  const seen = new ShingleIndex();
  const { chunks } = index;
  for (const hit of hits) {
    const fileId = chunks.fileIds[hit.ordinal] ?? '';
    const text = chunks.texts.at(hit.ordinal) ?? '';
    const start = chunks.starts[hit.ordinal] ?? -1;
    const end = chunks.ends[hit.ordinal] ?? -1;
    const overlapping = items.find((item) => item.fileId === fileId && rangesOverlap(item, start, end));
    if (overlapping) {
      mergeInto(overlapping, text, start, end, hit.ordinal);
      seen.add(wordShingles(text));
      continue;
    }
    const own = wordShingles(text);
    if (seen.coversMost(own)) continue;
    if (items.length >= topK) break;
    items.push({ content: text, score: hit.score, fileId, ordinals: [hit.ordinal], start, end });
    seen.add(own);
  }
  return items;
}

/**
 * Shingles of the items taken so far, each with the items holding it, so a new chunk is checked
 * against all of them in one pass over its own shingles.
 */
class ShingleIndex {
  private readonly holders = new Map<number, number[]>();
  private count = 0;

  add(shingles: ReadonlySet<number>): void {
    const item = this.count++;
    for (const shingle of shingles) {
      const list = this.holders.get(shingle);
      if (list) list.push(item);
      else this.holders.set(shingle, [item]);
    }
  }

  /** True when one earlier text holds ≥ 80% of `shingles`. */
  coversMost(shingles: ReadonlySet<number>): boolean {
    if (shingles.size === 0) return false;
    const shared = new Map<number, number>();
    for (const shingle of shingles) {
      for (const item of this.holders.get(shingle) ?? []) shared.set(item, (shared.get(item) ?? 0) + 1);
    }
    for (const count of shared.values()) if (count / shingles.size >= NEAR_DUPLICATE) return true;
    return false;
  }
}

function rangesOverlap(item: PayloadItem, start: number, end: number): boolean {
  if (start < 0 || end < 0 || item.start < 0 || item.end < 0) return false;
  return start < item.end && item.start < end;
}

function mergeInto(item: PayloadItem, text: string, start: number, end: number, ordinal: number): void {
  item.content = start < item.start ? joinOverlapping(text, item.content) : joinOverlapping(item.content, text);
  item.start = Math.min(item.start, start);
  item.end = Math.max(item.end, end);
  item.ordinals.push(ordinal);
}

/**
 * `first` then `second`, where the start of `second` repeats the end of `first`: the longest suffix of
 * `first` that is a prefix of `second` is written once. Without such an overlap, or when one contains
 * the other, the result is the longer text or both joined by a space.
 */
export function joinOverlapping(first: string, second: string): string {
  if (first.includes(second)) return first;
  if (second.includes(first)) return second;
  const probe = second.slice(0, Math.min(8, second.length));
  for (let at = first.indexOf(probe); at >= 0; at = first.indexOf(probe, at + 1)) {
    if (second.startsWith(first.slice(at))) return first.slice(0, at) + second;
  }
  return `${first} ${second}`;
}

/**
 * Word 5-grams of case-folded text as 32-bit hashes (the whole text as one gram when shorter); a
 * collision only makes two different grams count as shared, which 80% thresholds shrug off.
 */
export function wordShingles(text: string): Set<number> {
  const hashes = wordHashes(text);
  const shingles = new Set<number>();
  const width = Math.min(SHINGLE, hashes.length);
  for (let at = 0; at + width <= hashes.length; at++) {
    let gram = 0x811c9dc5;
    for (let offset = 0; offset < width; offset++) gram = Math.imul(gram ^ (hashes[at + offset] ?? 0), 0x01000193);
    shingles.add(gram >>> 0);
    if (width === 0) break;
  }
  return shingles;
}

const WORD_CHARACTER = /[\p{L}\p{N}]/u;

/** FNV-1a hashes of the words (runs of letters and digits, lowercased) of `text`, in one pass. */
function wordHashes(text: string): number[] {
  const hashes: number[] = [];
  let hash = 0x811c9dc5;
  let inWord = false;
  for (let index = 0; index < text.length; index++) {
    const code = wordCode(text, index);
    if (code >= 0) {
      hash = Math.imul(hash ^ code, 0x01000193);
      inWord = true;
    } else if (inWord) {
      hashes.push(hash >>> 0);
      hash = 0x811c9dc5;
      inWord = false;
    }
  }
  if (inWord) hashes.push(hash >>> 0);
  return hashes;
}

/** The lowercased code of the character at `index` when it is a letter or digit, else -1. */
function wordCode(text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (code < 128) {
    const isWord = (code >= 48 && code <= 57) || ((code | 32) >= 97 && (code | 32) <= 122);
    return isWord ? code | (code >= 65 ? 32 : 0) : -1;
  }
  const character = text[index] ?? '';
  return WORD_CHARACTER.test(character) ? character.toLowerCase().charCodeAt(0) : -1;
}

/** True when ≥ 80% of the smaller set lies in the other. */
export function isNearDuplicate(a: ReadonlySet<number>, b: ReadonlySet<number>): boolean {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  if (small.size === 0) return large.size === 0;
  let shared = 0;
  for (const shingle of small) if (large.has(shingle)) shared++;
  return shared / small.size >= NEAR_DUPLICATE;
}
