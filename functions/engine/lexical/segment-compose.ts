/**
 * Composing lexical segments without merging them: a segment of the live docs of several parts whose
 * doc tables (ids, files, lengths) are copied, a pointer or a number a doc, and whose postings stay in the
 * parts. A query reads a term's list from each part and maps it to composed ordinals, skipping deleted
 * docs (`termPostings` in segment.ts), so its BM25 statistics are those of every live doc of every part:
 * N is the live doc count, the mean length the live docs' mean, a term's df the live docs holding it
 * (Lucene's IndexSearcher over its leaves, with deleted docs left out of the statistics); the small parts
 * are read as one, gathered once per version (segment-gather.ts). Scores are
 * therefore those of the merged segment, to the bit. No posting is decoded or encoded to compose; the
 * merged postings are worked out only if something reads them (serializing, or merging the composed
 * segment again).
 */
import type { LexicalSegment, SegmentPart } from './segment';
import { gatheredParts } from './segment-gather';
import { mergedLanguages, mergeDocs, mergeDocsInto, mergePostings } from './segment-merge';
import { meanLength } from './segment-format';

/** The doc tables two fields of the same chunks share (ids and files; lengths differ). */
export type SharedDocs = Pick<LexicalSegment, 'docIds' | 'fileIds' | 'docFiles'>;

/**
 * What a composition keeps of an earlier one of the same field: its first `parts` parts are the same
 * segments with the same deletions, so its first `docs` docs are the same, in the same order.
 */
export interface ComposedPrefix {
  /** The earlier composed field (or the lone segment that was the earlier version). */
  segment: LexicalSegment;
  parts: number;
  docs: number;
}

/**
 * The composed segment of `parts` (at least one; all built with the same analyzer options) holding
 * `docCount` live docs. `same` is another composed field of the same chunks (the text field, for titles),
 * whose doc ids and files are taken as they are. With `prefix`, the docs of its parts are copied from the
 * earlier composition (array copies), and only the other parts' docs are visited. Parts of fewer than
 * `gatherBelow` docs are gathered into one for queries (segment-gather.ts; the earlier gathering extended
 * when the prefix allows).
 */
export function composeSegments(
  parts: readonly SegmentPart[],
  docCount: number,
  same?: SharedDocs,
  prefix?: ComposedPrefix,
  gatherBelow?: number,
): LexicalSegment {
  const first = parts[0];
  if (!first) throw new RangeError('composeSegments needs at least one part');
  const docs = same
    ? { docIds: same.docIds, fileIds: same.fileIds, docFiles: same.docFiles, docLengths: liveLengths(parts, docCount, prefix) }
    : prefix
      ? docsAfter(parts, docCount, prefix)
      : mergeDocs(parts, docCount);
  let postings: ReturnType<typeof mergePostings> | undefined;
  const merged = () => {
    postings ??= mergePostings(parts);
    return postings;
  };
  const searched = gatheredParts(parts, gatherBelow, prefix);
  return {
    analyzer: first.segment.analyzer,
    languages: mergedLanguages(parts),
    ...docs,
    avgDocLength: meanLength(docs.docLengths),
    parts,
    ...(searched ? { searched } : {}),
    get terms() {
      return merged().terms;
    },
    get docFreqs() {
      return merged().docFreqs;
    },
    get postingOffsets() {
      return merged().postingOffsets;
    },
    get postings() {
      return merged().postings;
    },
  };
}

/** The live docs' lengths in composed order. */
function liveLengths(parts: readonly SegmentPart[], docCount: number, prefix?: ComposedPrefix): Uint32Array {
  const lengths = new Uint32Array(docCount);
  if (prefix) lengths.set(prefix.segment.docLengths.subarray(0, prefix.docs));
  for (const { segment, ordinals } of parts.slice(prefix?.parts ?? 0)) {
    for (let doc = 0; doc < ordinals.length; doc++) {
      const merged = ordinals[doc] ?? -1;
      if (merged >= 0) lengths[merged] = segment.docLengths[doc] ?? 0;
    }
  }
  return lengths;
}

/**
 * `mergeDocs` of the parts, the prefix's docs copied from the earlier composition: files are numbered by
 * first appearance, so the prefix's docs use the earlier table's first files, and the other parts' files
 * are numbered after them.
 */
function docsAfter(parts: readonly SegmentPart[], docCount: number, prefix: ComposedPrefix): ReturnType<typeof mergeDocs> {
  const before = prefix.segment;
  const docIds = before.docIds.slice(0, prefix.docs); // the other parts' docs are written after, in order (appended)
  const docLengths = new Uint32Array(docCount);
  docLengths.set(before.docLengths.subarray(0, prefix.docs));
  const docFiles = new Uint32Array(docCount);
  docFiles.set(before.docFiles.subarray(0, prefix.docs));
  let files = 0;
  for (let doc = 0; doc < prefix.docs; doc++) files = Math.max(files, (docFiles[doc] as number) + 1);
  const fileIndex = new Map<string, number>();
  for (let file = 0; file < files; file++) fileIndex.set(before.fileIds[file] ?? '', file);
  mergeDocsInto(parts.slice(prefix.parts), { docIds, docLengths, docFiles }, fileIndex);
  return { docIds, fileIds: [...fileIndex.keys()], docFiles, docLengths };
}
