/**
 * Mentions found by a service (a model's entity located in the chunk, a Comprehend entity span) built
 * the way the offline extractor builds its own (`extract-entities.ts`), so the resolver treats them
 * alike: character offsets into the chunk, the covering token span and sentence of the parsed chunk,
 * a kind (name for text matching one of the ontology's patterns of its type, such as versions and
 * error codes; value for the value types such as dates; phrase for noun phrases without capitals or
 * digits; name otherwise), a matching key
 * (a pattern's canonical form, `singularKey` for phrases, `normalizeKey` otherwise), and the acronym a
 * name defines in "Name (ACR)".
 */
import {
  type ChunkExtraction,
  looksLikeAcronym,
  normalizeKey,
  type OntologySchema,
  type ParsedText,
  singularKey,
  type TextPattern,
} from '../../engine/graph';

export type ExtractedMention = ChunkExtraction['mentions'][number];
export type RelationCandidate = ChunkExtraction['relations'][number];

/** A typed character span of the chunk, end exclusive. */
export interface TypedSpan {
  readonly start: number;
  readonly end: number;
  readonly type: string;
}

const ACRONYM_AFTER = /^\s*\(\s*([A-Z][A-Za-z0-9&.]{1,9})\s*\)/;

/** The mention for `span` of the parsed chunk; undefined when it covers no token or has no usable key. */
export function mentionAt(parsed: ParsedText, schema: OntologySchema, span: TypedSpan): ExtractedMention | undefined {
  const raw = parsed.text.slice(span.start, span.end);
  const start = span.start + (raw.length - raw.trimStart().length);
  const end = span.end - (raw.length - raw.trimEnd().length);
  const surface = parsed.text.slice(start, end);
  const tokens = tokenSpan(parsed, start, end);
  if (tokens === undefined || surface === '') return undefined;
  const kind = mentionKind(schema, span.type, surface);
  const key = mentionKey(schema, kind, span.type, surface);
  if (key.length < 2) return undefined;
  const mention: ExtractedMention = {
    surface,
    key,
    kind,
    type: span.type,
    start,
    end,
    tokenStart: tokens.from,
    tokenEnd: tokens.to,
    sentence: parsed.tokens[tokens.from]?.sentence ?? 0,
  };
  const acronym = kind === 'name' ? ACRONYM_AFTER.exec(parsed.text.slice(end))?.[1] : undefined;
  return acronym !== undefined && looksLikeAcronym(acronym) && normalizeKey(acronym) !== key
    ? { ...mention, acronym: normalizeKey(acronym) }
    : mention;
}

function mentionKind(schema: OntologySchema, type: string, surface: string): ExtractedMention['kind'] {
  if (wholePatternMatch(schema, type, surface) !== undefined) return 'name';
  if (Object.values(schema.rules.valueLabels).includes(type)) return 'value';
  return /\p{Lu}|\p{N}/u.test(surface) ? 'name' : 'phrase';
}

function mentionKey(schema: OntologySchema, kind: ExtractedMention['kind'], type: string, surface: string): string {
  const canonical = wholePatternMatch(schema, type, surface)?.canonical;
  if (canonical !== undefined) return canonical(surface);
  return kind === 'phrase' ? singularKey(surface) : normalizeKey(surface);
}

/** The ontology text pattern of `type` that matches all of `surface` ("version 4.2", "ERR_SYNC_TIMEOUT"). */
function wholePatternMatch(schema: OntologySchema, type: string, surface: string): TextPattern | undefined {
  return schema.rules.textPatterns.find(
    (pattern) => pattern.type === type && [...surface.matchAll(pattern.pattern)].some((match) => match[0] === surface),
  );
}

/** Indexes of the first and after-last tokens overlapping [start, end). */
function tokenSpan(parsed: ParsedText, start: number, end: number): { from: number; to: number } | undefined {
  let from = -1;
  let to = -1;
  for (let index = 0; index < parsed.tokens.length; index++) {
    const token = parsed.tokens[index];
    if (token === undefined || token.start >= end) break;
    if (token.end > start && token.pos !== 'SPACE') {
      if (from < 0) from = index;
      to = index + 1;
    }
  }
  return from < 0 ? undefined : { from, to };
}

/** Index of the parsed sentence holding character `offset` (the last one starting at or before it). */
export function sentenceAt(parsed: ParsedText, offset: number): number {
  let found = 0;
  parsed.sentences.forEach((sentence, index) => {
    if (sentence.start <= offset) found = index;
  });
  return found;
}

/** Mentions in text order, longest first at one start (the offline extractor's order). */
export function inTextOrder(mentions: ExtractedMention[]): ExtractedMention[] {
  return mentions.sort((a, b) => a.start - b.start || b.end - a.end);
}

export interface Span {
  readonly start: number;
  readonly end: number;
}

/** Whole-word occurrences of `needle` in `text` (any run of whitespace matches a space); exact case first. */
export function occurrences(text: string, needle: string): Span[] {
  if (needle.trim() === '') return [];
  const body = needle.trim().split(/\s+/).map(escapeRegExp).join('\\s+');
  const find = (flags: string): Span[] =>
    [...text.matchAll(new RegExp(`(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, flags))].map((match) => ({
      start: match.index,
      end: match.index + match[0].length,
    }));
  const exact = find('gu');
  return exact.length ? exact : find('giu');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
