/**
 * Merging lexical segments into one, dropping deleted docs: the segment a full build of the surviving docs
 * (in the merged order) makes, byte for byte, without analyzing any text again. Each part maps its doc
 * ordinals to merged ordinals (-1: deleted); merged ordinals ascend part by part and within a part, so
 * every term's merged posting list is its parts' lists in order, gaps re-encoded.
 */
import { decodePostings, VarintWriter } from './postings';
import { LANGUAGES } from './language';
import type { LexicalSegment, SegmentPart } from './segment';
import { meanLength } from './segment-format';

/** The merged segment of `parts` (at least one; all built with the same analyzer options) holding `docCount` docs. */
export function mergeSegments(parts: readonly SegmentPart[], docCount: number): LexicalSegment {
  const first = parts[0];
  if (!first) throw new RangeError('mergeSegments needs at least one part');
  const docs = mergeDocs(parts, docCount);
  const languages = mergedLanguages(parts);
  return { analyzer: first.segment.analyzer, languages, ...docs, avgDocLength: meanLength(docs.docLengths), ...mergePostings(parts) };
}

/** The languages of the parts that keep a doc, in `LANGUAGES` order (a part's languages are not known per doc). */
export function mergedLanguages(parts: readonly SegmentPart[]): LexicalSegment['languages'] {
  const kept = new Set(parts.filter(({ ordinals }) => ordinals.some((merged) => merged >= 0)).flatMap(({ segment }) => segment.languages));
  return LANGUAGES.filter((language) => kept.has(language));
}

type MergedDocs = Pick<LexicalSegment, 'docIds' | 'fileIds' | 'docFiles' | 'docLengths'>;

/**
 * The surviving docs' ids, lengths and files, in merged order (files numbered by first appearance). Plain
 * copies: a file id is looked up once per part, not once per doc.
 */
export function mergeDocs(parts: readonly SegmentPart[], docCount: number): MergedDocs & { docLengths: Uint32Array } {
  const docs = { docIds: new Array<string>(docCount).fill(''), docLengths: new Uint32Array(docCount), docFiles: new Uint32Array(docCount) };
  const fileIndex = new Map<string, number>();
  mergeDocsInto(parts, docs, fileIndex);
  return { ...docs, fileIds: [...fileIndex.keys()] };
}

/** Writes the parts' surviving docs into `docs` at their merged ordinals, numbering new files after those of `fileIndex`. */
export function mergeDocsInto(
  parts: readonly SegmentPart[],
  docs: { docIds: string[]; docLengths: Uint32Array; docFiles: Uint32Array },
  fileIndex: Map<string, number>,
): void {
  const { docIds, docLengths, docFiles } = docs;
  for (const { segment, ordinals } of parts) {
    const files = new Int32Array(segment.fileIds.length).fill(-1); // the part's file index → merged
    for (let doc = 0; doc < ordinals.length; doc++) {
      const merged = ordinals[doc] ?? -1;
      if (merged < 0) continue;
      docIds[merged] = segment.docIds[doc] ?? '';
      docLengths[merged] = segment.docLengths[doc] ?? 0;
      docFiles[merged] = mergedFile(segment, segment.docFiles[doc] ?? 0, files, fileIndex);
    }
  }
}

/** The merged index of a part's file (numbered on first sight), remembered in the part's `files` table. */
function mergedFile(segment: LexicalSegment, file: number, files: Int32Array, fileIndex: Map<string, number>): number {
  const known = files[file] ?? -1;
  if (known >= 0) return known;
  const fileId = segment.fileIds[file] ?? '';
  const index = fileIndex.get(fileId) ?? fileIndex.size;
  fileIndex.set(fileId, index);
  files[file] = index;
  return index;
}

type MergedPostings = Pick<LexicalSegment, 'terms' | 'docFreqs' | 'postingOffsets' | 'postings'>;

/** Every term's surviving postings, terms in code-unit order; terms no surviving doc holds are left out. */
export function mergePostings(parts: readonly SegmentPart[]): MergedPostings {
  const vocabulary = [...new Set(parts.flatMap((part) => part.segment.terms))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const cursors = new Uint32Array(parts.length); // each part's next term ordinal (its vocabulary is sorted too)
  const writer = new VarintWriter();
  const terms: string[] = [];
  const docFreqs: number[] = [];
  const offsets: number[] = [];
  for (const term of vocabulary) {
    const start = writer.size;
    const list = { previous: 0, count: 0 };
    parts.forEach((part, p) => {
      const ordinal = cursors[p] ?? 0;
      if (part.segment.terms[ordinal] !== term) return;
      cursors[p] = ordinal + 1;
      appendPostings(writer, part, ordinal, list);
    });
    if (list.count === 0) continue;
    terms.push(term);
    docFreqs.push(list.count);
    offsets.push(start);
  }
  offsets.push(writer.size);
  return { terms, docFreqs: Uint32Array.from(docFreqs), postingOffsets: Uint32Array.from(offsets), postings: writer.toBytes() };
}

/** Appends the surviving postings of the part's term `ordinal` to the merged list being written. */
function appendPostings(
  writer: VarintWriter,
  { segment, ordinals }: SegmentPart,
  ordinal: number,
  list: { previous: number; count: number },
): void {
  const from = segment.postingOffsets[ordinal] ?? 0;
  const decoded = decodePostings(segment.postings, from, segment.postingOffsets[ordinal + 1] ?? from, segment.docFreqs[ordinal] ?? 0);
  for (let i = 0; i < decoded.docs.length; i++) {
    const merged = ordinals[decoded.docs[i] ?? 0] ?? -1;
    if (merged < 0) continue;
    writer.write(merged - list.previous);
    writer.write(decoded.freqs[i] ?? 0);
    list.previous = merged;
    list.count++;
  }
}
