/**
 * Building a memory's graph file by file, and removing files.
 *
 * `extractFile` is pure (parse, mentions, relation candidates; no graph state), so a worker may run
 * it anywhere; `mergeFile` resolves the mentions against the graph's existing nodes and records the
 * file's contribution; `addFile` does both. `removeFile` subtracts a contribution (see `graph-model.ts`);
 * adding a file id that is already present replaces it.
 */
import { DEFAULT_MATCH_THRESHOLDS, type MatchThresholds } from './entity-match';
import { extractMentions, type ExtractedMention } from './extract-entities';
import { addCount, type FileContribution, type GraphFact, type KnowledgeGraph, type SpeakerStatement } from './graph-model';
import { messageStatements } from './recent-statements';
import { removeFile } from './graph-remove';
import { parseText } from './nlp';
import { looksLikeAcronym } from './normalize';
import { ontologySchema, organizationHeads, personTypes, type OntologyName, type OntologySchema } from './ontology';
import { extractRelations, type RelationCandidate } from './relations';
import { EntityResolver, type ResolutionReason } from './resolve';
import type { VectorTyper } from './typing';
import { createSurnameTest, createVectorTyper, type WordVectors } from './word-vector-typing';
import { recordRelations } from './graph-relations';
import { TrackedMap } from './tracked-map';

export interface GraphSettings {
  readonly ontology: OntologyName;
  /** Keep each SVO relation's source sentence as a fact. */
  readonly factExtraction: boolean;
  /** Word vectors for typing and phrase matching; without them those steps are skipped. */
  readonly vectors?: WordVectors;
  readonly thresholds?: MatchThresholds;
}

/** A memory's graph with what it needs to take more files. */
export interface MemoryGraph {
  readonly graph: KnowledgeGraph;
  readonly settings: GraphSettings;
  readonly resolver: EntityResolver;
  readonly vectorTyper?: VectorTyper;
}

/** A file to add: its id and its chunks (ids unique within the memory). */
export interface GraphFileInput {
  readonly fileId: string;
  readonly chunks: ReadonlyArray<{ readonly id: string; readonly text: string }>;
}

/** Where a chunk comes from: when its source stated it, which message or file that is, and who said it. */
export interface ChunkOrigin {
  /** ISO 8601: the message's time, else the file's (or the document date its text states). */
  readonly time?: string;
  /** The message, else the file. */
  readonly sourceId?: string;
  /** A customer user's message: who said it (their first-person statements make their profile). */
  readonly speaker?: string;
  /** The chunk's text, needed with `speaker`. */
  readonly text?: string;
}

/** Where a file's chunks come from (validity.ts, profile-statements.ts); all optional. */
export interface FileOrigin {
  readonly chunks?: ReadonlyMap<string, ChunkOrigin>;
  /**
   * The time of this version of a file that was in the graph before: facts the earlier version stated and
   * this one does not are kept, closed at this time; facts both state keep the earlier `validFrom`.
   * Absent (a session's messages again): what is no longer stated goes.
   */
  readonly replacedAt?: string;
}

export interface ChunkExtraction {
  readonly chunkId: string;
  readonly index: number;
  readonly mentions: readonly ExtractedMention[];
  readonly relations: readonly RelationCandidate[];
}

export interface FileExtraction {
  readonly fileId: string;
  readonly chunks: readonly ChunkExtraction[];
}

/** What adding a file did. */
export interface FileSummary {
  readonly fileId: string;
  readonly chunks: number;
  readonly mentions: number;
  readonly newEntities: number;
  /** Mentions that joined an existing node, by rule (exact key, acronym, abbreviation, fuzzy, vector…). */
  readonly resolvedBy: Readonly<Partial<Record<ResolutionReason, number>>>;
  readonly relations: number;
  readonly facts: number;
}

/** An empty graph for a memory. */
export function createMemoryGraph(settings: GraphSettings): MemoryGraph {
  const schema = ontologySchema(settings.ontology);
  const graph: KnowledgeGraph = {
    schema,
    // tracked: a build writes only what it changed (graph-delta.ts)
    entities: new TrackedMap(),
    relations: new TrackedMap(),
    facts: new TrackedMap(),
    chunks: new TrackedMap(),
    files: new TrackedMap(),
  };
  const context = {
    thresholds: settings.thresholds ?? DEFAULT_MATCH_THRESHOLDS,
    organizationHeads: organizationHeads(schema),
    personTypes: personTypes(schema),
    ...(settings.vectors === undefined ? {} : { vectors: settings.vectors, isSurnameLike: createSurnameTest(settings.vectors) }),
  };
  const resolver = new EntityResolver(graph, context);
  const vectorTyper = settings.vectors === undefined ? undefined : createVectorTyper(settings.vectors);
  return { graph, settings, resolver, ...(vectorTyper === undefined ? {} : { vectorTyper }) };
}

/** Parses a file's chunks into mentions and relation candidates (no graph state). */
export function extractFile(
  input: GraphFileInput,
  options: { schema: OntologySchema; factExtraction: boolean; vectorTyper?: VectorTyper },
): FileExtraction {
  const chunks = input.chunks.map((chunk, index) => {
    const parsed = parseText(chunk.text);
    const mentions = extractMentions(parsed, options.schema, options.vectorTyper ? { vectorTyper: options.vectorTyper } : {});
    const relations = extractRelations(parsed, mentions, options.schema, { facts: options.factExtraction });
    return { chunkId: chunk.id, index, mentions, relations };
  });
  return { fileId: input.fileId, chunks };
}

/** Extracts and merges one file. */
export function addFile(memory: MemoryGraph, input: GraphFileInput, origin: FileOrigin = {}): FileSummary {
  const { schema } = memory.graph;
  const options = {
    schema,
    factExtraction: memory.settings.factExtraction,
    ...(memory.vectorTyper ? { vectorTyper: memory.vectorTyper } : {}),
  };
  return mergeFile(memory, extractFile(input, options), origin);
}

/**
 * Resolves an extracted file into the graph and records its contribution. Validity (`validTo`) is not
 * worked out here: call `refreshValidity` once after the files of a build are merged.
 */
export function mergeFile(memory: MemoryGraph, extraction: FileExtraction, origin: FileOrigin = {}): FileSummary {
  const { graph } = memory;
  const earlier = graph.files.get(extraction.fileId);
  // a session again (no replacedAt) states each message at its own time: nothing to carry over
  const previous = earlier && origin.replacedAt !== undefined ? earlierVersion(graph, earlier) : undefined;
  if (earlier) removeFile(memory, extraction.fileId);
  const contribution: FileContribution = {
    fileId: extraction.fileId,
    chunkIds: [],
    mentions: [],
    aliasCounts: new Map(),
    typeCounts: new Map(),
    relationCounts: new Map(),
    factIds: [],
    relationTimes: new Map(),
    closedFacts: [],
    statements: [],
  };
  graph.files.set(extraction.fileId, contribution);
  for (const chunk of extraction.chunks) {
    if (graph.chunks.has(chunk.chunkId)) throw new RangeError(`graph: chunk id ${chunk.chunkId} is already in the memory`);
    const from = origin.chunks?.get(chunk.chunkId);
    graph.chunks.set(chunk.chunkId, {
      id: chunk.chunkId,
      fileId: extraction.fileId,
      index: chunk.index,
      ...(from?.time === undefined ? {} : { time: from.time }),
      ...(from?.sourceId === undefined ? {} : { sourceId: from.sourceId }),
    });
    contribution.chunkIds.push(chunk.chunkId);
  }
  const { entityIds, resolvedBy, newEntities } = resolveFile(memory, extraction, contribution);
  const { relations, facts } = recordRelations(graph, extraction, entityIds, contribution);
  contribution.statements.push(...originStatements(graph, extraction, origin));
  if (previous && origin.replacedAt !== undefined) carryOver(graph, contribution, previous, origin.replacedAt);
  const mentions = extraction.chunks.reduce((sum, chunk) => sum + chunk.mentions.length, 0);
  return { fileId: extraction.fileId, chunks: extraction.chunks.length, mentions, newEntities, resolvedBy, relations, facts };
}

/** Resolves every mention, longest names first (so "Barack Obama" is known before "Obama"). */
function resolveFile(memory: MemoryGraph, extraction: FileExtraction, contribution: FileContribution) {
  const order = extraction.chunks.flatMap((chunk, chunkIndex) => chunk.mentions.map((mention, index) => ({ mention, chunkIndex, index })));
  order.sort((a, b) => rank(b.mention) - rank(a.mention));
  const entityIds = extraction.chunks.map((chunk) => new Array<string>(chunk.mentions.length).fill(''));
  const defined = new Map<string, string>();
  const resolvedBy: Partial<Record<ResolutionReason, number>> = {};
  let newEntities = 0;
  const exactTypes = new Set(memory.graph.schema.rules.textPatterns.map((pattern) => pattern.type));
  for (const { mention, chunkIndex, index } of order) {
    const acronymShaped = mention.kind === 'name' && looksLikeAcronym(mention.surface);
    const exactOnly = exactTypes.has(mention.type);
    // An acronym's own type guess ("SAM" looks like a given name) is noise: it takes the generic type.
    const type = acronymShaped && !exactOnly ? memory.graph.schema.rules.defaultName : mention.type;
    const resolvable = { ...mention, type, acronymShaped, exactOnly };
    const resolution = memory.resolver.resolve(resolvable, extraction.fileId, defined);
    (entityIds[chunkIndex] as string[])[index] = resolution.entityId;
    if (mention.acronym !== undefined) defined.set(mention.acronym, resolution.entityId);
    if (resolution.reason === 'new') newEntities++;
    else resolvedBy[resolution.reason] = (resolvedBy[resolution.reason] ?? 0) + 1;
    recordMention(contribution, extraction.chunks[chunkIndex] as ChunkExtraction, { ...mention, type }, resolution.entityId);
  }
  return { entityIds, resolvedBy, newEntities };
}

function rank(mention: ExtractedMention): number {
  const kindRank = mention.kind === 'name' ? 2_000 : mention.kind === 'phrase' ? 1_000 : 0;
  return kindRank + Math.min(mention.key.split(' ').length, 99) * 10;
}

function recordMention(contribution: FileContribution, chunk: ChunkExtraction, mention: ExtractedMention, entityId: string): void {
  const aliases = contribution.aliasCounts.get(entityId) ?? new Map<string, number>();
  addCount(aliases, mention.key, 1);
  contribution.aliasCounts.set(entityId, aliases);
  const types = contribution.typeCounts.get(entityId) ?? new Map<string, number>();
  addCount(types, mention.type, 1);
  contribution.typeCounts.set(entityId, types);
  contribution.mentions.push({
    entityId,
    chunkId: chunk.chunkId,
    fileId: contribution.fileId,
    surface: mention.surface,
    start: mention.start,
    end: mention.end,
    sentence: mention.sentence,
  });
}

export { removeFile } from './graph-remove';

/** What an earlier version of a file stated, read before it is removed. */
interface EarlierVersion {
  readonly facts: GraphFact[];
  readonly closedFacts: GraphFact[];
  readonly relationTimes: Map<string, [string, string]>;
}

function earlierVersion(graph: KnowledgeGraph, file: FileContribution): EarlierVersion {
  const facts = file.factIds.flatMap((id) => {
    const fact = graph.facts.get(id);
    return fact ? [fact] : [];
  });
  return { facts, closedFacts: file.closedFacts, relationTimes: new Map(file.relationTimes) };
}

const factKey = (fact: GraphFact): string => `${fact.relationId}\u0000${fact.text}`;

/**
 * A new version of a file: what both versions state keeps its first time (one fact, not two); the earlier
 * version's facts this one does not state stay, closed at `replacedAt`.
 */
function carryOver(graph: KnowledgeGraph, contribution: FileContribution, previous: EarlierVersion, replacedAt: string): void {
  const before = new Map(previous.facts.map((fact) => [factKey(fact), fact]));
  const restated = new Set<string>();
  for (const id of contribution.factIds) {
    const fact = graph.facts.get(id);
    const old = fact && before.get(factKey(fact));
    if (!fact || !old) continue;
    restated.add(factKey(fact));
    if (old.validFrom < fact.validFrom) fact.validFrom = old.validFrom;
  }
  for (const [id, span] of contribution.relationTimes) {
    const old = previous.relationTimes.get(id);
    if (old && old[0] < span[0]) span[0] = old[0];
  }
  const closed = previous.facts
    .filter((fact) => !restated.has(factKey(fact)))
    .map((fact): GraphFact => ({ ...fact, closedAt: replacedAt, validTo: replacedAt }));
  contribution.closedFacts.push(...previous.closedFacts, ...closed);
}

/** The first-person statements of the file's customer-user messages. */
function originStatements(graph: KnowledgeGraph, extraction: FileExtraction, origin: FileOrigin): SpeakerStatement[] {
  if (!origin.chunks) return [];
  return extraction.chunks.flatMap((chunk) => {
    const from = origin.chunks?.get(chunk.chunkId);
    if (from?.speaker === undefined || from.text === undefined) return [];
    return messageStatements(graph, from.text, {
      speaker: from.speaker,
      chunkId: chunk.chunkId,
      sourceId: from.sourceId ?? extraction.fileId,
      time: from.time ?? '',
    });
  });
}
