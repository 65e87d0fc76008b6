/**
 * Links a query to segment entities, without NLP: the query's normalised word n-grams (longest first,
 * up to 6 words) are looked up among entity aliases (also with the last word made singular); words
 * left over that are not stopwords then match entities having that word in an alias (partial links,
 * half weight, only when at most `MAX_PARTIAL` entities share the word). A stopword matches alone
 * only when written as an acronym ("WHO"). Weights carry the entity's specificity,
 * ln(1 + chunks / chunks mentioning it), split among entities sharing the alias.
 */
import { ENGLISH_STOPWORDS } from '../lexical/stopwords';
import type { GraphSegment } from './graph-segment';
import { keyWords, looksLikeAcronym, normalizeKey, singularWord } from './normalize';

/** A query-entity link: entity ordinal, seed weight, and the query words that matched. */
export interface EntityLink {
  readonly entity: number;
  readonly weight: number;
  readonly matched: string;
}

interface Lookup {
  readonly byAlias: Map<string, number[]>;
  readonly byWord: Map<string, number[]>;
}

const MAX_NGRAM = 6;
const MAX_PARTIAL = 20;
const PARTIAL_WEIGHT = 0.5;
const lookups = new WeakMap<GraphSegment, Lookup>();

/** Entities the query names, strongest seed first. */
export function linkQueryToEntities(segment: GraphSegment, queryText: string): EntityLink[] {
  const lookup = lookupOf(segment);
  const words = queryWords(queryText);
  const consumed = new Uint8Array(words.length);
  const weights = new Map<number, { weight: number; matched: string }>();
  const add = (entities: readonly number[], share: number, matched: string): void => {
    for (const entity of entities) {
      const current = weights.get(entity) ?? { weight: 0, matched };
      current.weight += (share * specificity(segment, entity)) / entities.length;
      weights.set(entity, current);
    }
  };
  for (let size = Math.min(MAX_NGRAM, words.length); size >= 1; size--) {
    for (let start = 0; start + size <= words.length; start++) {
      if (consumed.subarray(start, start + size).some(Boolean)) continue;
      const gram = words.slice(start, start + size);
      if (size === 1 && gram[0]?.stop && !gram[0].acronym) continue;
      const text = gram.map((word) => word.text).join(' ');
      const entities = lookup.byAlias.get(text) ?? lookup.byAlias.get(singularLast(text));
      if (entities === undefined) continue;
      consumed.fill(1, start, start + size);
      add(entities, 1, text);
    }
  }
  words.forEach((word, index) => {
    if (consumed[index] || word.stop || word.text.length < 3) return;
    const entities = lookup.byWord.get(word.text) ?? lookup.byWord.get(singularWord(word.text));
    if (entities !== undefined && entities.length <= MAX_PARTIAL) add(entities, PARTIAL_WEIGHT, word.text);
  });
  return [...weights]
    .map(([entity, { weight, matched }]) => ({ entity, weight, matched }))
    .sort((a, b) => b.weight - a.weight || a.entity - b.entity);
}

interface QueryWord {
  readonly text: string;
  readonly stop: boolean;
  readonly acronym: boolean;
}

function queryWords(queryText: string): QueryWord[] {
  return queryText.split(/\s+/).flatMap((raw) => {
    const acronym = looksLikeAcronym(raw.replace(/[^\p{L}\p{N}.&]/gu, ''));
    return keyWords(normalizeKey(raw)).map((text) => ({ text, stop: ENGLISH_STOPWORDS.has(text), acronym }));
  });
}

function singularLast(key: string): string {
  const space = key.lastIndexOf(' ');
  return key.slice(0, space + 1) + singularWord(key.slice(space + 1));
}

function specificity(segment: GraphSegment, entity: number): number {
  const chunks = (segment.entityChunkOffsets[entity + 1] ?? 0) - (segment.entityChunkOffsets[entity] ?? 0);
  return Math.log(1 + segment.chunkIds.length / Math.max(1, chunks));
}

function lookupOf(segment: GraphSegment): Lookup {
  const cached = lookups.get(segment);
  if (cached !== undefined) return cached;
  const byAlias = new Map<string, number[]>();
  const byWord = new Map<string, number[]>();
  const put = (map: Map<string, number[]>, key: string, entity: number): void => {
    const list = map.get(key);
    if (list === undefined) map.set(key, [entity]);
    else if (list[list.length - 1] !== entity) list.push(entity);
  };
  segment.aliases.forEach((aliases, entity) => {
    for (const alias of aliases) {
      put(byAlias, alias, entity);
      for (const word of keyWords(alias)) if (!ENGLISH_STOPWORDS.has(word)) put(byWord, word, entity);
    }
  });
  const lookup = { byAlias, byWord };
  lookups.set(segment, lookup);
  return lookup;
}
