/**
 * A published graph segment's facts with their validity, as the query side reads them: the memory's facts
 * (current sources), the facts replaced files no longer state (closed) and customer users' statements
 * (profiles), each `{content, validFrom, validTo, sourceId}`. `validFrom` '' means unknown (a segment
 * written before validity): the reader shows its source's time instead. A fact holds at `asOf` when it
 * was stated then or before and not yet replaced.
 */
import type { GraphSegment, StatementRecord } from './graph-segment';

export interface DatedFact {
  readonly content: string;
  /** The chunk that states it ('' for a closed fact: its file's text changed since). */
  readonly chunkId: string;
  readonly fileId?: string;
  readonly validFrom: string;
  readonly validTo: string | null;
  readonly sourceId?: string;
  /** Entity ordinals of its ends, for the memory's own facts. */
  readonly subject?: number;
  readonly object?: number;
  /** Entity ids of a closed fact's ends. */
  readonly subjectId?: string;
  readonly objectId?: string;
}

/** Whether a fact stated at `validFrom` and replaced at `validTo` holds at `asOf` (ISO 8601). */
export function holdsAt(fact: Pick<DatedFact, 'validFrom' | 'validTo'>, asOf: string): boolean {
  return fact.validFrom <= asOf && (fact.validTo === null || fact.validTo > asOf);
}

const cache = new WeakMap<GraphSegment, readonly DatedFact[]>();

/** Every fact of the segment: the memory's own, then closed ones, then speaker statements (worked out once per segment). */
export function datedFacts(segment: GraphSegment): readonly DatedFact[] {
  let facts = cache.get(segment);
  if (!facts) cache.set(segment, (facts = readDatedFacts(segment)));
  return facts;
}

function readDatedFacts(segment: GraphSegment): DatedFact[] {
  const { facts } = segment;
  const own = facts.texts.map(
    (content, index): DatedFact => ({
      content,
      chunkId: segment.chunkIds[facts.chunks[index] ?? 0] ?? '',
      validFrom: facts.validFrom?.[index] ?? '',
      validTo: facts.validTo?.[index] ?? null,
      ...(facts.sourceIds?.[index] === undefined ? {} : { sourceId: facts.sourceIds[index] }),
      subject: facts.subjects[index] ?? 0,
      object: facts.objects[index] ?? 0,
    }),
  );
  const closed = (segment.closedFacts ?? []).map(
    (fact): DatedFact => ({
      content: fact.text,
      chunkId: '',
      fileId: fact.fileId,
      validFrom: fact.validFrom,
      validTo: fact.validTo,
      sourceId: fact.sourceId,
      subjectId: fact.subjectId,
      objectId: fact.objectId,
    }),
  );
  return [...own, ...closed, ...(segment.statements ?? []).map(statementFact)];
}

function statementFact(statement: StatementRecord): DatedFact {
  const { text, chunkId, validFrom, validTo, sourceId } = statement;
  return { content: text, chunkId, validFrom, validTo, sourceId };
}

/**
 * Chunks that state something no longer holding at `asOf` (a single-valued fact or statement replaced by
 * then): retrieval ranks them a little lower, so of two contradicting passages the current one comes first.
 */
export function supersededChunks(segment: GraphSegment, asOf: string): Set<string> {
  const stale = new Set<string>();
  for (const fact of datedFacts(segment)) {
    if (fact.chunkId !== '' && fact.validTo !== null && fact.validTo <= asOf) stale.add(fact.chunkId);
  }
  return stale;
}

export interface ProfileEntry {
  readonly content: string;
  readonly kind: string;
  readonly chunkId: string;
  readonly validFrom: string;
  readonly validTo: string | null;
  readonly sourceId: string;
}

export interface Profile {
  readonly preferences: ProfileEntry[];
  readonly facts: ProfileEntry[];
}

/**
 * What `speaker` said of themself by `asOf`: preferences and facts, those holding at `asOf` first
 * (latest first), then those replaced by then (latest first). Statements made after `asOf` are left out.
 */
export function profileOf(segment: GraphSegment, speaker: string, asOf: string): Profile {
  const said = (segment.statements ?? []).filter((statement) => statement.speaker === speaker && statement.validFrom <= asOf);
  const order = (a: StatementRecord, b: StatementRecord): number => {
    const held = Number(holdsAt(b, asOf)) - Number(holdsAt(a, asOf));
    return held || (a.validFrom < b.validFrom ? 1 : a.validFrom > b.validFrom ? -1 : 0);
  };
  const entries = (category: StatementRecord['category']): ProfileEntry[] =>
    said
      .filter((statement) => statement.category === category)
      .sort(order)
      .map(({ text, kind, chunkId, validFrom, validTo, sourceId }) => ({ content: text, kind, chunkId, validFrom, validTo, sourceId }));
  return { preferences: dedupe(entries('preference')), facts: dedupe(entries('fact')) };
}

/** One entry per sentence and validity (a message saying the same twice counts once). */
function dedupe(entries: ProfileEntry[]): ProfileEntry[] {
  const seen = new Set<string>();
  return entries.filter((entry) => {
    const key = `${entry.content.toLowerCase()}\u0000${entry.sourceId}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
