/**
 * Turns a model's validated answer for one chunk into a `ChunkExtraction` grounded in the chunk's
 * text: every occurrence of each entity's text (whole words; exact case first, then any case) becomes
 * a mention, longer names winning overlaps ("Marie Curie" over "Curie" inside it; a lone "Curie"
 * elsewhere stays a mention for the resolver to join). Entities not found in the text are dropped,
 * and so are relations whose ends were dropped (see `ground-relations.ts`).
 */
import { type ChunkExtraction, type OntologySchema, parseText } from '../../engine/graph';
import type { ChunkAnswer } from './answer-schema';
import { groundRelations } from './ground-relations';
import { mentionAt, occurrences, type ExtractedMention, type Span } from './mention-build';

/** Most mentions kept per chunk (chunks are ~1,200 characters). */
const MAX_MENTIONS = 300;
const MAX_ENTITY_CHARS = 200;

export interface GroundedChunk {
  readonly extraction: ChunkExtraction;
  readonly entitiesAnswered: number;
  /** Distinct answered entities found in the text at least once. */
  readonly entitiesFound: number;
  readonly relationsAnswered: number;
  readonly relationsKept: number;
}

export interface ChunkRef {
  readonly chunkId: string;
  readonly index: number;
  readonly text: string;
}

export function groundChunk(chunk: ChunkRef, answer: ChunkAnswer, schema: OntologySchema, facts: boolean): GroundedChunk {
  const parsed = parseText(chunk.text);
  const entities = distinctEntities(answer.entities);
  const spans = pickSpans(
    entities.flatMap((entity, entityIndex) => occurrences(chunk.text, entity.text).map((span) => ({ ...span, entityIndex }))),
  );
  const built: Array<{ mention: ExtractedMention; entityIndex: number }> = [];
  for (const span of spans) {
    const entity = entities[span.entityIndex];
    const mention = entity && mentionAt(parsed, schema, { start: span.start, end: span.end, type: entity.type });
    if (mention) built.push({ mention, entityIndex: span.entityIndex });
  }
  built.sort((a, b) => a.mention.start - b.mention.start || b.mention.end - a.mention.end);
  const mentions = built.map((item) => item.mention);
  const byEntityText = new Map<string, number[]>();
  built.forEach((item, index) => {
    const text = entities[item.entityIndex]?.text ?? '';
    for (const key of new Set([text, text.toLowerCase()])) byEntityText.set(key, [...(byEntityText.get(key) ?? []), index]);
  });
  const relations = groundRelations({
    parsed,
    mentions,
    mentionsOf: (text) => byEntityText.get(text) ?? byEntityText.get(text.toLowerCase()) ?? [],
    answer,
    facts,
  });
  const foundEntities = new Set(built.map((item) => item.entityIndex));
  return {
    extraction: { chunkId: chunk.chunkId, index: chunk.index, mentions, relations: relations.candidates },
    entitiesAnswered: entities.length,
    entitiesFound: foundEntities.size,
    relationsAnswered: answer.relations.length,
    relationsKept: relations.kept,
  };
}

/** One entry per text (the first type given wins), trimmed, bounded in length. */
function distinctEntities(entities: ChunkAnswer['entities']): Array<{ text: string; type: string }> {
  const seen = new Map<string, { text: string; type: string }>();
  for (const entity of entities) {
    const text = entity.text.trim();
    if (text === '' || text.length > MAX_ENTITY_CHARS || seen.has(text)) continue;
    seen.set(text, { text, type: entity.type });
  }
  return [...seen.values()];
}

/** Non-overlapping spans, longest first, at most `MAX_MENTIONS`. */
function pickSpans<T extends Span>(spans: T[]): T[] {
  const sorted = [...spans].sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: T[] = [];
  for (const span of sorted) {
    if (kept.length >= MAX_MENTIONS) break;
    if (kept.every((other) => span.end <= other.start || span.start >= other.end)) kept.push(span);
  }
  return kept;
}
