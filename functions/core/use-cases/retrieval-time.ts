/**
 * Time in memory retrieval (`asOf`): which graph facts hold at an instant, which passages state only what
 * had been replaced by then (they score SUPERSEDED_PASSAGE_FACTOR of their fused score, so of two
 * contradicting passages the current one ranks first), and facts on the wire's terms with their validity.
 */
import { datedFacts, type GraphSegment, holdsAt, type MemoryFact, supersededChunks } from '../../engine';
import { type FileRecord, type SourceId, sourceRefOf } from '../model';
import type { ChunkRecord } from '../stored-index/chunks';
import type { LoadedIndex } from '../stored-index/index-cache';

/** The score factor of a passage stating only what `asOf` had seen replaced. */
const SUPERSEDED_PASSAGE_FACTOR = 0.85;

/** A supporting fact on the wire's terms: when it held (`validFrom` null when its source is gone) and what stated it. */
export interface DatedFactView {
  content: string;
  validFrom: string | null;
  validTo: string | null;
  sourceId: string | null;
}

/** A source's id as `sources` shows it: a session's own id. */
export const publicSourceId = (id: SourceId): string => {
  const source = sourceRefOf(id);
  return source.kind === 'session' ? source.sessionId : source.fileId;
};

/** Lowers passages stating only what had been replaced by `asOf` (none replaced: no factor at all). */
export function supersededFactor(
  index: Pick<LoadedIndex, 'retrieval'>,
  graph: GraphSegment,
  asOf: string,
): ((ordinal: number) => number) | undefined {
  const stale = supersededChunks(graph, asOf);
  if (stale.size === 0) return undefined;
  const ids = index.retrieval.chunks.ids;
  return (ordinal) => (stale.has(ids[ordinal] ?? '') ? SUPERSEDED_PASSAGE_FACTOR : 1);
}

/**
 * A passage's sentence may be a fact at `asOf` unless its message was written after it, or it says what
 * the graph knows did not hold then (it holds the text of a fact or statement replaced by `asOf`, or
 * stated only after it, as a file's newer version does).
 */
export function sentenceHolds(
  recordOf: ((chunkId: string, ordinal: number) => ChunkRecord | undefined) | undefined,
  graph: GraphSegment | null,
  asOf: string,
): (chunkId: string, sentence: string, ordinal: number) => boolean {
  const notHolding = new Map<string, string[]>();
  for (const fact of graph ? datedFacts(graph) : []) {
    if (fact.chunkId === '' || holdsAt(fact, asOf) || fact.validFrom === '') continue;
    notHolding.set(fact.chunkId, [...(notHolding.get(fact.chunkId) ?? []), fact.content]);
  }
  return (chunkId, sentence, ordinal) => {
    const createdAt = recordOf?.(chunkId, ordinal)?.message?.createdAt;
    if (createdAt !== undefined && new Date(createdAt).toISOString() > asOf) return false;
    return !(notHolding.get(chunkId) ?? []).some((content) => sentence.includes(content) || content.includes(sentence));
  };
}

/** The graph's facts holding at `asOf` (unknown start: held since its source, so kept). */
export function graphFacts(graph: GraphSegment, asOf: string): MemoryFact[] {
  return datedFacts(graph)
    .filter((fact) => holdsAt(fact, asOf))
    .map(({ content, chunkId, fileId, validFrom, validTo, sourceId }) => ({
      content,
      ...(chunkId === '' ? {} : { chunkId }),
      ...(fileId === undefined ? {} : { fileId }),
      validFrom,
      validTo,
      ...(sourceId === undefined ? {} : { sourceId }),
    }));
}

/**
 * The facts on the wire's terms: a fact without a known start (a sentence of a passage, a graph built before
 * validity) starts at its source's time, the message's or the file's; its source is the message, else the file.
 * `files` holds the records of `factFileIds(index, facts)` (read with the payload's sources, in one batch);
 * a file not among them (deleted meanwhile) gives no start.
 */
export function datedFactViews(
  find: ChunkFinder,
  facts: readonly MemoryFact[],
  files: ReadonlyMap<string, Pick<FileRecord, 'createdAt'>>,
): DatedFactView[] {
  return facts.map((fact) => {
    const chunk = chunkOf(find, fact);
    const sourceId = fact.sourceId ?? chunk?.message?.id ?? chunk?.pageId ?? fact.fileId ?? chunk?.fileId ?? null;
    const view = { content: fact.content, validTo: fact.validTo ?? null, sourceId: sourceId && publicSourceId(sourceId) };
    if (fact.validFrom) return { ...view, validFrom: fact.validFrom };
    if (chunk?.message) return { ...view, validFrom: new Date(chunk.message.createdAt).toISOString() };
    const fileId = factFileId(find, fact);
    return { ...view, validFrom: (fileId === undefined ? undefined : files.get(fileId)?.createdAt) ?? null };
  });
}

/** The files whose records date the facts (`datedFactViews`): a fact with no start of its own and no message. */
export function factFileIds(find: ChunkFinder, facts: readonly MemoryFact[]): string[] {
  return facts.flatMap((fact) => {
    const fileId = fact.validFrom || chunkOf(find, fact)?.message ? undefined : factFileId(find, fact);
    return fileId === undefined ? [] : [fileId];
  });
}

/** A chunk's record by id. */
export type ChunkFinder = (chunkId: string) => ChunkRecord | undefined;

/**
 * The records of an answer's facts: a sentence fact's chunk is one of the payload items' (found by their
 * ordinals, no lookup by id over the whole index); another (a graph fact's) is looked up by id.
 */
export function factChunks(
  index: Pick<LoadedIndex, 'retrieval' | 'chunks' | 'records'>,
  items: ReadonlyArray<{ ordinals: readonly number[] }>,
): ChunkFinder {
  const near = new Map<string, ChunkRecord>();
  const { records } = index;
  if (records)
    for (const ordinal of items.flatMap((item) => item.ordinals)) {
      const record = records[ordinal];
      if (record && record.id === index.retrieval.chunks.ids[ordinal]) near.set(record.id, record);
    }
  return (chunkId) => near.get(chunkId) ?? index.chunks.get(chunkId);
}

const chunkOf = (find: ChunkFinder, fact: MemoryFact): ChunkRecord | undefined =>
  fact.chunkId === undefined ? undefined : find(fact.chunkId);

/** The file (or page) a fact comes from, when it is a file: a session's time is its message's. */
function factFileId(find: ChunkFinder, fact: MemoryFact): string | undefined {
  const chunk = chunkOf(find, fact);
  const fileId = chunk?.pageId ?? chunk?.fileId ?? fact.fileId;
  return fileId === undefined || sourceRefOf(fileId).kind === 'session' ? undefined : fileId;
}
