/**
 * Composing a memory's segments into one retrieval index of their live chunks, in place: what a reader
 * does each time it sees a new version (docs/segments.md). Nothing is merged: the lexical fields keep
 * their postings in the segments and score with the statistics of every live chunk of every segment
 * (segment-compose.ts), the title-link table is put together from the segments' tables, and each
 * segment's HNSW graph is searched on its own (`searchAnnParts`). What is copied is a pointer or a row a
 * live chunk: the chunk table, the lexical doc tables and the vector rows (runs of live rows at once).
 *
 * A query over the composed index ranks exactly as over `mergeRetrievalIndexes` of the same parts, which is
 * the index a build from nothing of the live chunks makes (test/unit/retrieval/compose-index.test.ts).
 */
import { composeSegments } from '../lexical/segment-compose';
import type { LexicalSegment } from '../lexical/segment';
import { type IndexPart, lexicalParts, mergeChunkTables, mergeVectors, partGraphs, partOrdinals } from './merge-index';
import { inheritLargestRowNorm } from './int8-bounded-search';
import type { RetrievalIndex } from './retrieval-index';
import { buildTitleLinks, composeTitleLinks, type TitleLinkTable } from './title-links';
import type { VectorSegment } from './vector-segment';

/** The live chunks of `parts` (at least one), part after part, as one index that leaves them in place. */
export function composeRetrievalIndexes(parts: readonly IndexPart[]): RetrievalIndex {
  const { ordinals, count } = partOrdinals(parts);
  const text = composeSegments(lexicalParts(parts, ordinals, 'text'), count);
  const titles = composeSegments(lexicalParts(parts, ordinals, 'titles'), count, text);
  const chunks = mergeChunkTables(parts, ordinals, count);
  const stored = mergeVectors(parts, ordinals, count);
  if (stored.vectors) inheritLargestRowNorm(stored.vectors, partVectors(parts));
  const annParts = stored.vectors ? partGraphs(parts, ordinals) : undefined;
  const links = composedLinks(parts, ordinals, text, chunks.titles);
  return { chunks, text, titles, ...stored, ann: null, links, ...(annParts ? { annParts } : {}) };
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
  const live = parts.flatMap(({ index }, p) => ((ordinals[p] ?? []).some((merged) => merged >= 0) ? [{ index, p }] : []));
  const readAlike = live.every(({ index }) => text.analyzer.language !== 'auto' || sameList(index.text.languages, text.languages));
  if (!readAlike) return buildTitleLinks(titles, text.analyzer, text.languages);
  return composeTitleLinks(live.map(({ index, p }) => ({ table: index.links, ordinals: ordinals[p] ?? new Int32Array(0) })));
}

const partVectors = (parts: readonly IndexPart[]): VectorSegment[] => parts.flatMap(({ index }) => (index.vectors ? [index.vectors] : []));

const sameList = <T>(a: readonly T[], b: readonly T[]): boolean => a.length === b.length && a.every((value, i) => value === b[i]);
