/**
 * Finds a graph segment's entities by name, best first, and reads what the segment knows about one: its
 * neighbours (strongest link first), the facts it takes part in and the chunks that mention it most.
 *
 * A name matches an entity through its aliases (normalised keys): the same key (or the same up to a
 * plural) scores 1; an alias holding every word of the name scores from 0.5 to 0.9, the closer in length
 * the higher; a close spelling (trigram Dice at least 0.5) half its Dice; an alias sharing some content
 * words a third of the shared share. Ties go to the entity mentioned in more chunks.
 */
import { ENGLISH_STOPWORDS } from '../lexical/stopwords';
import type { GraphSegment } from './graph-segment';
import { keyWords, normalizeKey, singularKey } from './normalize';
import { trigramDice } from './similarity';

export interface EntityMatch {
  /** Entity ordinal in the segment. */
  readonly entity: number;
  readonly score: number;
}

const MIN_DICE = 0.5;

/** Entities whose aliases match `name` (and that `keep` keeps), best first, at most `limit`. */
export function matchEntitiesByName(
  segment: GraphSegment,
  name: string,
  limit: number,
  keep: (entity: number) => boolean = () => true,
): EntityMatch[] {
  const key = normalizeKey(name);
  if (key === '') return [];
  const query = { key, singular: singularKey(key), words: new Set(keyWords(key)) };
  const matches: EntityMatch[] = [];
  segment.aliases.forEach((aliases, entity) => {
    const score = Math.max(0, ...aliases.map((alias) => aliasScore(alias, query)));
    if (score > 0 && keep(entity)) matches.push({ entity, score });
  });
  return matches
    .sort((a, b) => b.score - a.score || mentionChunks(segment, b.entity) - mentionChunks(segment, a.entity) || a.entity - b.entity)
    .slice(0, limit);
}

interface NameQuery {
  key: string;
  singular: string;
  words: Set<string>;
}

function aliasScore(alias: string, query: NameQuery): number {
  if (alias === query.key || alias === query.singular || singularKey(alias) === query.singular) return 1;
  const words = keyWords(alias);
  const shared = words.filter((word) => query.words.has(word)).length;
  if (shared === query.words.size) return 0.5 + (0.4 * query.words.size) / words.length;
  const dice = trigramDice(alias, query.key);
  if (dice >= MIN_DICE) return dice / 2;
  const content = words.filter((word) => query.words.has(word) && !ENGLISH_STOPWORDS.has(word)).length;
  return content > 0 ? content / (3 * new Set([...words, ...query.words]).size) : 0;
}

/** How many chunks mention the entity. */
function mentionChunks(segment: GraphSegment, entity: number): number {
  return (segment.entityChunkOffsets[entity + 1] ?? 0) - (segment.entityChunkOffsets[entity] ?? 0);
}

/** The entity's neighbours (ordinals), strongest link first, at most `limit`. */
export function neighboursOf(segment: GraphSegment, entity: number, limit: number): number[] {
  const from = segment.edgeOffsets[entity] ?? 0;
  const to = segment.edgeOffsets[entity + 1] ?? from;
  const links: Array<[number, number]> = [];
  for (let at = from; at < to; at++) links.push([segment.edgeTargets[at] ?? 0, segment.edgeWeights[at] ?? 0]);
  return links
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, limit)
    .map(([target]) => target);
}

/** Chunk ids that mention the entity, most mentions first. */
export function mentioningChunks(segment: GraphSegment, entity: number): string[] {
  const from = segment.entityChunkOffsets[entity] ?? 0;
  const to = segment.entityChunkOffsets[entity + 1] ?? from;
  const chunks: Array<[number, number]> = [];
  for (let at = from; at < to; at++) chunks.push([segment.entityChunks[at] ?? 0, segment.entityChunkWeights[at] ?? 0]);
  return chunks.sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([chunk]) => segment.chunkIds[chunk] ?? '');
}

/** The facts the entity is the subject or object of, as (text, chunk id), in segment order. */
export function factsOf(segment: GraphSegment, entity: number): Array<{ text: string; chunkId: string }> {
  const { facts } = segment;
  const found: Array<{ text: string; chunkId: string }> = [];
  facts.texts.forEach((text, index) => {
    if (facts.subjects[index] === entity || facts.objects[index] === entity) {
      found.push({ text, chunkId: segment.chunkIds[facts.chunks[index] ?? 0] ?? '' });
    }
  });
  return found;
}
