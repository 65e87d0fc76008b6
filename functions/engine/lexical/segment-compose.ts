/**
 * Composing lexical segments without merging them: a segment of the live docs of several parts whose
 * doc tables (ids, files, lengths) are copied, a pointer or a number a doc, and whose postings stay in the
 * parts. A query reads a term's list from each part and maps it to composed ordinals, skipping deleted
 * docs (`termPostings` in segment.ts), so its BM25 statistics are those of every live doc of every part:
 * N is the live doc count, the mean length the live docs' mean, a term's df the live docs holding it
 * (Lucene's IndexSearcher over its leaves, with deleted docs left out of the statistics). Scores are
 * therefore those of the merged segment, to the bit. No posting is decoded or encoded to compose; the
 * merged postings are worked out only if something reads them (serializing, or merging the composed
 * segment again).
 */
import type { LexicalSegment, SegmentPart } from './segment';
import { mergedLanguages, mergeDocs, mergePostings } from './segment-merge';
import { meanLength } from './segment-format';

/** The composed segment of `parts` (at least one; all built with the same analyzer options) holding `docCount` live docs. */
export function composeSegments(parts: readonly SegmentPart[], docCount: number): LexicalSegment {
  const first = parts[0];
  if (!first) throw new RangeError('composeSegments needs at least one part');
  const docs = mergeDocs(parts, docCount);
  let postings: ReturnType<typeof mergePostings> | undefined;
  const merged = () => {
    postings ??= mergePostings(parts);
    return postings;
  };
  return {
    analyzer: first.segment.analyzer,
    languages: mergedLanguages(parts),
    ...docs,
    avgDocLength: meanLength(docs.docLengths),
    parts,
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
