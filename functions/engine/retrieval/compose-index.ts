/**
 * Composing a memory's segments into one retrieval index of their live chunks, in place: what a reader
 * does each time it sees a new version (docs/segments.md). Nothing is merged: the lexical fields keep
 * their postings in the large segments, the small segments' gathered into one per version, and score
 * with the statistics of every live chunk of every segment (segment-compose.ts), the title-link table is read from the segments' tables when a query looks a
 * title up, and the vectors stay in the segments (vector-parts.ts): each large segment is searched by its
 * own kernel, kept with the segment, and each segment's HNSW graph on its own (`searchAnnParts`). What is
 * copied is a pointer or a number a live chunk (the chunk table, the lexical doc tables) and the live
 * vector rows and postings of the small segments. `vectors`, one table of every live row, is copied only if something
 * reads it (serializing or merging the composed index); no query does.
 *
 * A query over the composed index ranks exactly as over `mergeRetrievalIndexes` of the same parts, which is
 * the index a build from nothing of the live chunks makes (test/unit/retrieval/compose-index.test.ts).
 */
import { composeSegments } from '../lexical/segment-compose';
import type { LexicalSegment } from '../lexical/segment';
import {
  type ChunkPlaces,
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
import { composeVectors, GATHER_BELOW_ROWS } from './vector-parts';
import type { VectorSegment } from './vector-segment';

export interface ComposeOptions {
  /**
   * Segments of fewer chunks (default `GATHER_BELOW_ROWS`) have their live vector rows gathered into one
   * table per version (vector-parts.ts), and their lexical postings into merged segments, in groups
   * (segment-gather.ts).
   */
  gatherBelowRows?: number;
  /**
   * The version before, as composed from its parts (or the lone segment that was it): the parts it shares
   * at the start with `parts` (same segments, same deletions) keep their composed ordinals, so their
   * tables are copied from it rather than put together chunk by chunk.
   */
  previous?: { index: RetrievalIndex; parts: readonly IndexPart[] };
}

/** How an index was composed: what a later version sharing its first parts takes from it. */
interface Composition {
  parts: readonly IndexPart[];
  ordinals: readonly Int32Array[];
  places: ChunkPlaces;
}

const compositions = new WeakMap<RetrievalIndex, Composition>();

/** The live chunks of `parts` (at least one), part after part, as one index that leaves them in place. */
export function composeRetrievalIndexes(parts: readonly IndexPart[], options: ComposeOptions = {}): RetrievalIndex {
  const prefix = options.previous ? sharedPrefix(parts, options.previous) : undefined;
  const { ordinals, count } = partOrdinals(parts, prefix);
  const places = chunkPlaces(ordinals, count, prefix);
  const lexicalPrefix = (field: 'text' | 'titles') =>
    prefix ? { segment: prefix.index[field], parts: prefix.parts, docs: prefix.count } : undefined;
  const gatherBelowRows = options.gatherBelowRows ?? GATHER_BELOW_ROWS;
  const text = composeSegments(lexicalParts(parts, ordinals, 'text'), count, undefined, lexicalPrefix('text'), gatherBelowRows);
  const titles = composeSegments(lexicalParts(parts, ordinals, 'titles'), count, text, lexicalPrefix('titles'), gatherBelowRows);
  const chunks = mergeChunkTables(parts, ordinals, count, places, prefix && { table: prefix.index.chunks, count: prefix.count });
  const model = vectorModel(parts, ordinals);
  const links = composedLinks(parts, ordinals, text, chunks.titles);
  const lexical = { chunks, text, titles, embedder: model?.embedder ?? null, ann: null, links };
  const composed = model
    ? withVectors(lexical, { parts, ordinals, places, count, model: model.vectors }, options, prefix)
    : { ...lexical, vectors: null };
  compositions.set(composed, { parts, ordinals, places });
  return composed;
}

/** What a composition takes from the version before: its first `parts` parts, holding `count` live chunks. */
interface Prefix {
  index: RetrievalIndex;
  parts: number;
  count: number;
  ordinals: readonly Int32Array[];
  places: ChunkPlaces;
}

/** The first parts `parts` shares with the version before (same segment, same deletions), when there are some. */
function sharedPrefix(parts: readonly IndexPart[], previous: { index: RetrievalIndex; parts: readonly IndexPart[] }): Prefix | undefined {
  const composition = compositions.get(previous.index) ?? loneComposition(previous);
  if (!composition) return undefined;
  let shared = 0;
  let count = 0;
  while (shared < parts.length && shared < composition.parts.length && samePart(parts[shared], composition.parts[shared])) {
    const part = parts[shared] as IndexPart;
    count += part.index.chunks.ids.length - part.deleted.size;
    shared++;
  }
  if (shared === 0) return undefined;
  return { index: previous.index, parts: shared, count, ordinals: composition.ordinals, places: composition.places };
}

/** A version that was one segment with nothing deleted, used as it is, seen as the composition of itself. */
function loneComposition(previous: { index: RetrievalIndex; parts: readonly IndexPart[] }): Composition | undefined {
  const only = previous.parts.length === 1 ? previous.parts[0] : undefined;
  if (!only || only.index !== previous.index || only.deleted.size > 0) return undefined;
  const count = only.index.chunks.ids.length;
  const identity = new Int32Array(count);
  for (let ordinal = 0; ordinal < count; ordinal++) identity[ordinal] = ordinal;
  return { parts: previous.parts, ordinals: [identity], places: { partOf: new Int32Array(count), ordinalIn: identity } };
}

const samePart = (a: IndexPart | undefined, b: IndexPart | undefined): boolean =>
  a !== undefined && b !== undefined && a.index === b.index && sameDeletions(a.deleted, b.deleted);

/** Whether a segment is deleted from alike in two versions: the rule for a part a new version may copy from the last (here and live-chunks.ts). */
export const sameDeletions = (a: ReadonlySet<number>, b: ReadonlySet<number>): boolean =>
  a.size === b.size && [...a].every((ordinal) => b.has(ordinal));

interface VectorInputs {
  parts: readonly IndexPart[];
  ordinals: readonly Int32Array[];
  places: ChunkPlaces;
  count: number;
  model: VectorSegment;
}

/** The index with its vectors left in the segments (vector-parts.ts); `vectors` copied into one table when read. */
function withVectors(
  lexical: Omit<RetrievalIndex, 'vectors'>,
  { parts, ordinals, places, count, model }: VectorInputs,
  options: ComposeOptions,
  prefix: Prefix | undefined,
): RetrievalIndex {
  const vectorParts = composeVectors(
    parts.map(({ index, deleted }, p) => ({ vectors: index.vectors, ordinals: ordinals[p] ?? new Int32Array(0), deleted: deleted.size })),
    places,
    options.gatherBelowRows,
    prefix?.index.vectorParts && { vectors: prefix.index.vectorParts, parts: prefix.parts },
  );
  const annParts = partGraphs(parts, ordinals);
  let copied: VectorSegment | undefined;
  return {
    ...lexical,
    vectorParts,
    ...(annParts ? { annParts } : {}),
    get vectors(): VectorSegment {
      if (!copied) {
        copied = copyLiveRows(parts, ordinals, count, model);
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
