/**
 * Composing a memory's segments into one retrieval index of their live chunks, in place: what a reader
 * does each time it sees a new version (docs/segments.md). Nothing is merged: the lexical fields keep
 * their postings in the segments and score with the statistics of every live chunk of every segment
 * (segment-compose.ts), the title-link table is read from the segments' tables when a query looks a
 * title up, and the vectors stay in the segments (vector-parts.ts): each large segment is searched by its
 * own kernel, kept with the segment, and each segment's HNSW graph on its own (`searchAnnParts`). What is
 * copied is a pointer or a number a live chunk (the chunk table, the lexical doc tables) and the live
 * vector rows of the small segments. `vectors`, one table of every live row, is copied only if something
 * reads it (serializing or merging the composed index); no query does.
 *
 * A query over the composed index ranks exactly as over `mergeRetrievalIndexes` of the same parts, which is
 * the index a build from nothing of the live chunks makes (test/unit/retrieval/compose-index.test.ts).
 */
import { composeSegments } from '../lexical/segment-compose';
import type { LexicalSegment } from '../lexical/segment';
import {
  chunkPlaces,
  copyLiveRows,
  hasLiveChunks,
  type IndexPart,
  lexicalParts,
  mergeChunkTables,
  partGraphs,
  partOrdinals,
  vectorModel,
} from './merge-index';
import { inheritLargestRowNorm } from './int8-bounded-search';
import type { RetrievalIndex } from './retrieval-index';
import { buildTitleLinks, composeTitleLinks, type TitleLinkTable } from './title-links';
import { composeVectors } from './vector-parts';
import type { VectorSegment } from './vector-segment';

export interface ComposeOptions {
  /** Segments of fewer rows have their live vector rows gathered into one table per version (vector-parts.ts). */
  gatherBelowRows?: number;
}

/** The live chunks of `parts` (at least one), part after part, as one index that leaves them in place. */
export function composeRetrievalIndexes(parts: readonly IndexPart[], options: ComposeOptions = {}): RetrievalIndex {
  const { ordinals, count } = partOrdinals(parts);
  const places = chunkPlaces(ordinals, count);
  const text = composeSegments(lexicalParts(parts, ordinals, 'text'), count);
  const titles = composeSegments(lexicalParts(parts, ordinals, 'titles'), count, text);
  const chunks = mergeChunkTables(parts, ordinals, count, places);
  const model = vectorModel(parts, ordinals);
  const links = composedLinks(parts, ordinals, text, chunks.titles);
  const lexical = { chunks, text, titles, embedder: model?.embedder ?? null, ann: null, links };
  if (!model) return { ...lexical, vectors: null };
  const vectorParts = composeVectors(
    parts.map(({ index, deleted }, p) => ({ vectors: index.vectors, ordinals: ordinals[p] ?? new Int32Array(0), deleted: deleted.size })),
    places.partOf,
    places.ordinalIn,
    options.gatherBelowRows,
  );
  const annParts = partGraphs(parts, ordinals);
  let copied: VectorSegment | undefined;
  return {
    ...lexical,
    vectorParts,
    ...(annParts ? { annParts } : {}),
    get vectors(): VectorSegment {
      if (!copied) {
        copied = copyLiveRows(parts, ordinals, count, model.vectors);
        inheritLargestRowNorm(copied, partVectors(parts));
      }
      return copied;
    },
  };
}

/**
 * The title-link table of the composed index: from the parts' tables when every part holding live
 * chunks read its titles in the languages the composed index reads them in, else built from the titles.
 */
function composedLinks(
  parts: readonly IndexPart[],
  ordinals: readonly Int32Array[],
  text: LexicalSegment,
  titles: readonly string[],
): TitleLinkTable {
  const live = parts.flatMap(({ index, deleted }, p) => (hasLiveChunks(ordinals[p], deleted) ? [{ index, p }] : []));
  const readAlike = live.every(({ index }) => text.analyzer.language !== 'auto' || sameList(index.text.languages, text.languages));
  if (!readAlike) return buildTitleLinks(titles, text.analyzer, text.languages);
  return composeTitleLinks(live.map(({ index, p }) => ({ table: index.links, ordinals: ordinals[p] ?? new Int32Array(0) })));
}

const partVectors = (parts: readonly IndexPart[]): VectorSegment[] => parts.flatMap(({ index }) => (index.vectors ? [index.vectors] : []));

const sameList = <T>(a: readonly T[], b: readonly T[]): boolean => a.length === b.length && a.every((value, i) => value === b[i]);
