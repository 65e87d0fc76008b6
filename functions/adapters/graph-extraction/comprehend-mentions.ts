/**
 * One chunk's extraction from Amazon Comprehend entities plus the offline extractor:
 * - names and dates come from Comprehend (score at least `minScore`), typed into the memory's ontology
 *   (PERSON → the ontology's person type, LOCATION → place, ORGANIZATION → organization,
 *   COMMERCIAL_ITEM → product, EVENT → event, TITLE → work, DATE → date, OTHER → the generic name
 *   type; the first of these the ontology has, else its generic name type; QUANTITY and dates without
 *   digits are dropped, as offline). A generic type gives way to the offline type of the same span;
 * - Comprehend has no notion of noun-phrase concepts nor of the ontology's pattern types (versions,
 *   error codes): those come from the offline extractor where they do not overlap a Comprehend entity;
 * - relations and facts: the offline SVO and co-occurrence scan (`relations.ts`) over those mentions.
 * Comprehend offsets count code points; they are turned into UTF-16 offsets and checked against the text.
 */
import type { Entity } from '@aws-sdk/client-comprehend';
import {
  type ChunkExtraction,
  extractMentions,
  extractRelations,
  isGenericType,
  type OntologySchema,
  type ParsedText,
  parseText,
  personTypes,
} from '../../engine/graph';
import { inTextOrder, mentionAt, occurrences, type ExtractedMention, type Span } from './mention-build';
import type { ExtractionContext } from '../../core/ingest/ports';

const TYPE_CHOICES: Readonly<Record<string, readonly string[]>> = {
  LOCATION: ['place'],
  ORGANIZATION: ['organization'],
  COMMERCIAL_ITEM: ['product'],
  EVENT: ['event'],
  TITLE: ['work'],
  OTHER: [],
};

/** The ontology type for a Comprehend entity type; undefined for types that are not entities here. */
function ontologyType(schema: OntologySchema, comprehendType: string): string | undefined {
  if (comprehendType === 'QUANTITY') return undefined;
  if (comprehendType === 'DATE') return schema.rules.valueLabels.DATE;
  const choices = comprehendType === 'PERSON' ? [...personTypes(schema)] : (TYPE_CHOICES[comprehendType] ?? []);
  return choices.find((type) => type in schema.types) ?? schema.rules.defaultName;
}

export interface ComprehendChunk {
  readonly chunkId: string;
  readonly index: number;
  readonly text: string;
  readonly entities: readonly Entity[];
}

export function comprehendChunkExtraction(chunk: ComprehendChunk, context: ExtractionContext, minScore: number): ChunkExtraction {
  const { schema } = context;
  const parsed = parseText(chunk.text);
  const offline = extractMentions(parsed, schema, context.vectorTyper ? { vectorTyper: context.vectorTyper } : {});
  const found: ExtractedMention[] = [];
  for (const entity of [...chunk.entities].sort((a, b) => spanLength(b) - spanLength(a))) {
    const mention = entityMention(entity, { chunk, parsed, schema, offline, minScore }, found);
    if (mention !== undefined) found.push(mention);
  }
  const patternTypes = new Set(schema.rules.textPatterns.map((pattern) => pattern.type));
  const kept = offline.filter(
    (mention) => (mention.kind === 'phrase' || patternTypes.has(mention.type)) && !found.some((other) => overlaps(other, mention)),
  );
  const mentions = inTextOrder([...found, ...kept]);
  const relations = extractRelations(parsed, mentions, schema, { facts: context.factExtraction });
  return { chunkId: chunk.chunkId, index: chunk.index, mentions, relations };
}

interface EntityReading {
  readonly chunk: ComprehendChunk;
  readonly parsed: ParsedText;
  readonly schema: OntologySchema;
  readonly offline: readonly ExtractedMention[];
  readonly minScore: number;
}

/**
 * The mention a Comprehend entity gives: confident enough, of a type the ontology has, found in the text,
 * clear of the longer mentions `found` so far, and (a value) with a digit. A generic type takes the offline
 * name's type on the same span.
 */
function entityMention(entity: Entity, reading: EntityReading, found: readonly ExtractedMention[]): ExtractedMention | undefined {
  const { chunk, parsed, schema, offline, minScore } = reading;
  const type = (entity.Score ?? 0) >= minScore && entity.Type !== undefined ? ontologyType(schema, entity.Type) : undefined;
  const span = type === undefined ? undefined : locate(chunk.text, entity);
  if (type === undefined || span === undefined || found.some((other) => overlaps(other, span))) return undefined;
  const sameSpan = offline.find((mention) => mention.start === span.start && mention.end === span.end && mention.kind === 'name');
  const refined = isGenericType(schema, type) && sameSpan !== undefined ? sameSpan.type : type;
  const mention = mentionAt(parsed, schema, { ...span, type: refined });
  if (mention === undefined || (mention.kind === 'value' && !/\d/.test(mention.surface))) return undefined;
  return mention;
}

/** The entity's UTF-16 span: its code-point offsets when they hold its text, else its nearest occurrence. */
function locate(text: string, entity: Entity): Span | undefined {
  if (entity.BeginOffset === undefined || entity.EndOffset === undefined) return undefined;
  const start = utf16Offset(text, entity.BeginOffset);
  const end = utf16Offset(text, entity.EndOffset);
  if (entity.Text === undefined || text.slice(start, end) === entity.Text) return end > start ? { start, end } : undefined;
  const nearest = occurrences(text, entity.Text).sort((a, b) => Math.abs(a.start - start) - Math.abs(b.start - start))[0];
  return nearest;
}

function utf16Offset(text: string, codePoints: number): number {
  if (!/[\uD800-\uDFFF]/.test(text)) return codePoints;
  let offset = 0;
  for (let seen = 0; seen < codePoints && offset < text.length; seen++) offset += (text.codePointAt(offset) ?? 0) > 0xffff ? 2 : 1;
  return offset;
}

function spanLength(entity: Entity): number {
  return (entity.EndOffset ?? 0) - (entity.BeginOffset ?? 0);
}

function overlaps(a: Span, b: Span): boolean {
  return a.start < b.end && b.start < a.end;
}
