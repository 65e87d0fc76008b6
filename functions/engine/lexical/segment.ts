/**
 * An immutable BM25 index segment over a memory's chunks, and search over it.
 *
 * Scoring is classic BM25 with Lucene's idf, `ln(1 + (N - df + 0.5) / (df + 0.5))`, and the (k1 + 1)
 * factor in the numerator (Lucene 8+ drops it; ranking is the same), exact doc lengths (Lucene rounds
 * them to one byte), and each repeated query term counted again (as Anserini boosts it). Defaults
 * k1 = 0.9, b = 0.4 follow Anserini. A build may take the terms of unchanged docs from the previous
 * segment's postings instead of analyzing them again. Segments are merged by segment-merge.ts and composed
 * without merging (searched in place) by segment-compose.ts. Each doc is analyzed in its language (analyzer.ts: the option's, else the doc's, else detected).
 */
import {
  type AnalyzerLanguage,
  analyzeIn,
  queryTermCounts,
  resolveAnalyzerOptions,
  type AnalyzerOptions,
  type ResolvedAnalyzerOptions,
} from './analyzer';
import { detectLanguages, LANGUAGES, type Language } from './language';
import { decodePostings, PostingCollector, type DecodedPostings } from './postings';
import { topKByScore } from './top-k';

import { meanLength } from './segment-format';

export { deserializeSegment, serializeSegment, SEGMENT_FORMAT_VERSION } from './segment-format';

/** A document to index: a chunk with its id and the file it came from. */
export interface LexicalDocument {
  id: string;
  text: string;
  fileId: string;
  /** The language to analyze it in when the analyzer detects languages ('auto'); detected from `text` when absent. */
  language?: Language;
}

/** A built segment. Docs are numbered 0..n-1 ("ordinals") in build order. Treat as read-only. */
export interface LexicalSegment {
  /** The analyzer options the segment was built with; queries are analyzed with the same. */
  readonly analyzer: Readonly<ResolvedAnalyzerOptions>;
  /** The languages its docs were analyzed in, in `LANGUAGES` order; queries are analyzed in each. */
  readonly languages: readonly Language[];
  readonly docIds: readonly string[];
  /** Distinct file ids, in order of first appearance. */
  readonly fileIds: readonly string[];
  /** Doc ordinal → index into `fileIds`. */
  readonly docFiles: Uint32Array;
  /** Doc ordinal → number of terms after analysis. */
  readonly docLengths: Uint32Array;
  /** Mean of `docLengths` (0 for an empty segment). */
  readonly avgDocLength: number;
  /** Vocabulary in code-unit order; a term's ordinal is its position. */
  readonly terms: readonly string[];
  /** Term ordinal → number of docs holding it. */
  readonly docFreqs: Uint32Array;
  /** Term ordinal → its first byte in `postings`; `terms.length + 1` entries. */
  readonly postingOffsets: Uint32Array;
  /** Varint (doc-ordinal gap, term frequency) pairs per term, docs ascending (see postings.ts). */
  readonly postings: Uint8Array;
  /**
   * A composed segment (segment-compose.ts): the live docs of these parts. A term's postings are read from
   * the parts' lists, mapped to composed ordinals; the four posting fields above are only worked out (by a
   * merge) when something reads them.
   */
  readonly parts?: readonly SegmentPart[];
  /**
   * What a query of a composed segment reads in place of `parts` when its small parts are gathered into
   * one (segment-gather.ts): the large parts, then the gathered one. Same live postings, fewer lists.
   */
  readonly searched?: readonly SegmentPart[];
}

/** A segment seen through a map of its doc ordinals to those of a merged or composed segment. */
export interface SegmentPart {
  segment: LexicalSegment;
  /** Doc ordinal of `segment` → merged ordinal, or -1 when the doc is deleted. Merged ordinals ascend part after part. */
  ordinals: Int32Array;
}

/** BM25 parameters; unset ones take `DEFAULT_BM25`. */
export interface Bm25Params {
  k1?: number;
  b?: number;
}

/** Anserini's BM25 defaults. */
export const DEFAULT_BM25: Readonly<Required<Bm25Params>> = Object.freeze({ k1: 0.9, b: 0.4 });

/** One search result. */
export interface LexicalHit {
  id: string;
  fileId: string;
  score: number;
}

/**
 * Docs of an earlier segment to take as they are: new ordinal → the ordinal of the doc in `previous` with
 * the same text. Their terms come from its postings instead of being analyzed again (when both segments
 * use the same analyzer options), so the segment is the one a full build makes.
 */
export interface ReusedDocs {
  previous: LexicalSegment;
  ordinals: ReadonlyMap<number, number>;
}

/** Indexes `docs` (ids must be distinct) with the analyzer `options` (defaults: stem, stopwords). */
export function buildSegment(docs: readonly LexicalDocument[], options: AnalyzerOptions = {}, reused?: ReusedDocs): LexicalSegment {
  const analyzer = resolveAnalyzerOptions(options);
  const earlier = reused && sameAnalyzer(reused.previous.analyzer, analyzer) ? reused : undefined;
  const counts = earlier ? termCountsOf(earlier.previous, new Set(earlier.ordinals.values())) : new Map<number, Array<[string, number]>>();
  const collector = new PostingCollector();
  const fileIndex = new Map<string, number>();
  const seenIds = new Set<string>();
  const docFiles = new Uint32Array(docs.length);
  const docLengths = new Uint32Array(docs.length);
  const languages = new Set<Language>();
  const languageOf = docLanguages(docs, analyzer.language);
  docs.forEach((doc, ordinal) => {
    const language = languageOf(ordinal);
    languages.add(language);
    if (seenIds.has(doc.id)) throw new RangeError(`Duplicate document id: ${doc.id}`);
    seenIds.add(doc.id);
    if (!fileIndex.has(doc.fileId)) fileIndex.set(doc.fileId, fileIndex.size);
    docFiles[ordinal] = fileIndex.get(doc.fileId) ?? 0;
    const before = earlier?.ordinals.get(ordinal);
    const known = before === undefined ? undefined : counts.get(before);
    if (earlier && before !== undefined && known) {
      docLengths[ordinal] = earlier.previous.docLengths[before] ?? 0;
      collector.addCounts(ordinal, known);
      return;
    }
    const terms = analyzeIn(doc.text, language, analyzer);
    docLengths[ordinal] = terms.length;
    collector.addDocument(ordinal, terms);
  });
  const encoded = collector.encode();
  return {
    analyzer,
    languages: LANGUAGES.filter((language) => languages.has(language)),
    docIds: docs.map((doc) => doc.id),
    fileIds: [...fileIndex.keys()],
    docFiles,
    docLengths,
    avgDocLength: meanLength(docLengths),
    terms: encoded.terms,
    docFreqs: encoded.docFreqs,
    postingOffsets: encoded.offsets,
    postings: encoded.bytes,
  };
}

/** Doc ordinal → the language it is analyzed in: the setting, else the doc's own, else detected over all docs. */
function docLanguages(docs: readonly LexicalDocument[], setting: AnalyzerLanguage): (ordinal: number) => Language {
  if (setting !== 'auto') return () => setting;
  const detected = docs.every((doc) => doc.language) ? [] : detectLanguages(docs.map((doc) => doc.text));
  return (ordinal) => docs[ordinal]?.language ?? detected[ordinal] ?? 'en';
}

function sameAnalyzer(a: Readonly<ResolvedAnalyzerOptions>, b: Readonly<ResolvedAnalyzerOptions>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof ResolvedAnalyzerOptions>;
  return [...keys].every((key) => a[key] === b[key]);
}

/** The distinct terms and frequencies of the `wanted` docs of `segment`, by doc ordinal, from its postings. */
function termCountsOf(segment: LexicalSegment, wanted: ReadonlySet<number>): Map<number, Array<[string, number]>> {
  const counts = new Map<number, Array<[string, number]>>();
  for (const doc of wanted) counts.set(doc, []);
  segment.terms.forEach((term, ordinal) => {
    const from = segment.postingOffsets[ordinal] ?? 0;
    const list = decodePostings(segment.postings, from, segment.postingOffsets[ordinal + 1] ?? from, segment.docFreqs[ordinal] ?? 0);
    for (let i = 0; i < list.docs.length; i++) counts.get(list.docs[i] ?? 0)?.push([term, list.freqs[i] ?? 0]);
  });
  return counts;
}

/** Ordinal of `term` in the sorted vocabulary of a plain segment (binary search), or -1. */
export function termOrdinal(segment: LexicalSegment, term: string): number {
  let low = 0;
  let high = segment.terms.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const candidate = segment.terms[middle] ?? '';
    if (candidate === term) return middle;
    if (candidate < term) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/** The decoded posting list of an analyzed `term` (empty if absent); a composed segment's gathered from its parts. */
export function termPostings(segment: LexicalSegment, term: string): DecodedPostings {
  const parts = segment.searched ?? segment.parts;
  if (parts) return partPostings(parts, term);
  const ordinal = termOrdinal(segment, term);
  if (ordinal < 0) return { docs: new Uint32Array(0), freqs: new Uint32Array(0) };
  const from = segment.postingOffsets[ordinal] ?? 0;
  const to = segment.postingOffsets[ordinal + 1] ?? from;
  return decodePostings(segment.postings, from, to, segment.docFreqs[ordinal] ?? 0);
}

/**
 * How many live docs hold an analyzed `term`: the stored count of a plain segment (no posting decoded),
 * a composed segment's summed over its parts, a part with deleted docs counted from its mapped list.
 */
export function termDocFreq(segment: LexicalSegment, term: string): number {
  const parts = segment.searched ?? segment.parts;
  if (!parts) {
    const ordinal = termOrdinal(segment, term);
    return ordinal < 0 ? 0 : (segment.docFreqs[ordinal] ?? 0);
  }
  let count = 0;
  for (const part of parts) {
    if (!hasDeletedDocs(part)) count += termDocFreq(part.segment, term);
    else count += partPostings([part], term).docs.length;
  }
  return count;
}

const partsWithDeletions = new WeakMap<SegmentPart, boolean>();

/** Whether a part maps some doc to -1 (worked out once per part). */
function hasDeletedDocs(part: SegmentPart): boolean {
  let deleted = partsWithDeletions.get(part);
  if (deleted === undefined) partsWithDeletions.set(part, (deleted = part.ordinals.includes(-1)));
  return deleted;
}

/** The live postings of `term` in every part, in merged ordinals: the list a merged segment holds. */
function partPostings(parts: readonly SegmentPart[], term: string): DecodedPostings {
  const lists = parts.map((part) => termPostings(part.segment, term));
  const total = lists.reduce((sum, list) => sum + list.docs.length, 0);
  const docs = new Uint32Array(total);
  const freqs = new Uint32Array(total);
  let count = 0;
  let ascending = true;
  lists.forEach((list, p) => {
    const ordinals = parts[p]?.ordinals ?? new Int32Array(0);
    for (let i = 0; i < list.docs.length; i++) {
      const merged = ordinals[list.docs[i] ?? 0] ?? -1;
      if (merged < 0) continue;
      if (count > 0 && merged < (docs[count - 1] ?? 0)) ascending = false;
      docs[count] = merged;
      freqs[count++] = list.freqs[i] ?? 0;
    }
  });
  const list = { docs: docs.subarray(0, count), freqs: freqs.subarray(0, count) };
  return ascending ? list : sortedByDoc(list);
}

/** The list's pairs by ascending doc (a gathered part's docs may lie before a large part's: segment-gather.ts). */
function sortedByDoc({ docs, freqs }: DecodedPostings): DecodedPostings {
  const order = Array.from(docs.keys()).sort((a, b) => (docs[a] ?? 0) - (docs[b] ?? 0));
  return { docs: Uint32Array.from(order, (i) => docs[i] ?? 0), freqs: Uint32Array.from(order, (i) => freqs[i] ?? 0) };
}

/** Lucene's BM25 idf of a term held by `docFreq` of `docCount` docs. */
export function bm25Idf(docCount: number, docFreq: number): number {
  return Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5));
}

/**
 * The top `k` docs for `query` by BM25, best first; ties go to the lower ordinal. Only docs sharing a
 * term with the query are returned. The query is analyzed with the segment's analyzer options.
 */
export function search(segment: LexicalSegment, query: string, k: number, params: Bm25Params = {}): LexicalHit[] {
  const docCount = segment.docIds.length;
  const limit = Math.floor(k);
  if (!(limit >= 1) || docCount === 0) return [];
  const k1 = params.k1 ?? DEFAULT_BM25.k1;
  const b = params.b ?? DEFAULT_BM25.b;
  const scores = new Float64Array(docCount);
  const average = segment.avgDocLength > 0 ? segment.avgDocLength : 1;
  for (const [term, queryFreq] of queryTermCounts(query, segment.analyzer, segment.languages)) {
    const postings = termPostings(segment, term);
    const weight = queryFreq * bm25Idf(docCount, postings.docs.length);
    for (let i = 0; i < postings.docs.length; i++) {
      const doc = postings.docs[i] ?? 0;
      const freq = postings.freqs[i] ?? 0;
      const lengthNorm = k1 * (1 - b + (b * (segment.docLengths[doc] ?? 0)) / average);
      scores[doc] = (scores[doc] ?? 0) + (weight * freq * (k1 + 1)) / (freq + lengthNorm);
    }
  }
  return topKByScore(scores, limit).map((doc) => ({
    id: segment.docIds[doc] ?? '',
    fileId: segment.fileIds[segment.docFiles[doc] ?? 0] ?? '',
    score: scores[doc] ?? 0,
  }));
}
