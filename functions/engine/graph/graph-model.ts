/**
 * The in-memory knowledge graph of one memory, and what each file contributed to it.
 *
 * Every count is per file, so removing a file subtracts exactly what it added: an entity lives while
 * some file mentions it, a relation while some file states it, a fact and a mention belong to one
 * chunk of one file. Entity ids are stable (a hash of the first key, type-split when needed); a node
 * is never re-keyed: a later, longer name joins the existing node and becomes its display name.
 */
import type { MentionKind } from './entity-match';
import type { OntologySchema } from './ontology';
import { isGenericType } from './ontology';

/** One way a node is written, with how many mentions use it. */
interface AliasRecord {
  surface: string;
  count: number;
  readonly acronymShaped: boolean;
}

/** A canonical entity: one node per real thing within a memory. */
export interface GraphEntity {
  readonly id: string;
  readonly kind: MentionKind;
  /** Display name: the longest full name among the aliases. */
  name: string;
  /** Key of `name`. */
  key: string;
  /** The most voted specific type, else the most voted type. */
  type: string;
  /** Alias key → record. */
  readonly aliases: Map<string, AliasRecord>;
  /** Type → mentions typed so. */
  readonly typeVotes: Map<string, number>;
  /** File id → mentions in that file. */
  readonly support: Map<string, number>;
}

export type RelationKind = 'svo' | 'cooccurrence';

/** A subject-predicate-object relation (or an undirected co-occurrence link, predicate "co-occurs with"). */
export interface GraphRelation {
  readonly id: string;
  readonly kind: RelationKind;
  readonly subjectId: string;
  readonly predicate: string;
  readonly objectId: string;
  /** File id → occurrences in that file. */
  readonly support: Map<string, number>;
  /** When it was first stated, and when a later statement replaced it (null: still holds); see validity.ts. */
  validFrom?: string;
  validTo?: string | null;
}

/** A relation as stated once: the source sentence or clause, where it came from. */
export interface GraphFact {
  readonly id: string;
  /** "fact", or an ontology fact kind such as "claim". */
  readonly kind: string;
  readonly relationId: string;
  readonly subjectId: string;
  readonly predicate: string;
  readonly objectId: string;
  readonly text: string;
  readonly chunkId: string;
  readonly fileId: string;
  readonly sentence: number;
  /** The time its source stated it (ISO 8601; '' when unknown). */
  validFrom: string;
  /** When a later statement or a new version of its file replaced it; null while it holds (validity.ts). */
  validTo: string | null;
  /** When a new version of its file stopped stating it (a closed fact; see `FileContribution.closedFacts`). */
  closedAt?: string;
  /** The message (or file) that stated it. */
  readonly sourceId: string;
}

/** An entity mentioned in a chunk. Offsets are into the chunk's text. */
export interface GraphMention {
  readonly entityId: string;
  readonly chunkId: string;
  readonly fileId: string;
  readonly surface: string;
  readonly start: number;
  readonly end: number;
  readonly sentence: number;
}

export interface GraphChunk {
  readonly id: string;
  readonly fileId: string;
  readonly index: number;
  /** When its source stated it (ISO 8601): the message's time, else the file's (or its stated document date). */
  readonly time?: string;
  /** The message it is, else its file. */
  readonly sourceId?: string;
}

/** Everything one file added: subtracting it removes the file. */
export interface FileContribution {
  readonly fileId: string;
  readonly chunkIds: string[];
  readonly mentions: GraphMention[];
  /** Entity id → alias key → mentions. */
  readonly aliasCounts: Map<string, Map<string, number>>;
  /** Entity id → type → mentions. */
  readonly typeCounts: Map<string, Map<string, number>>;
  /** Relation id → occurrences. */
  readonly relationCounts: Map<string, number>;
  readonly factIds: string[];
  /** Relation id → [first, last] time the file states it. */
  readonly relationTimes: Map<string, [string, string]>;
  /** Facts an earlier version of the file stated and this one does not: kept, closed (not in `facts`). */
  readonly closedFacts: GraphFact[];
  /** First-person statements of the file's speakers (messages of a customer user): their profile. */
  readonly statements: SpeakerStatement[];
}

/** What a speaker said of themself: a preference or a fact of their life (profile-statements.ts). */
export interface SpeakerStatement {
  readonly id: string;
  /** The customer user who said it. */
  readonly speaker: string;
  readonly category: 'preference' | 'fact';
  /** like, dislike, prefer, habit, wish, diet, residence, work, occupation, family, partner, plan… */
  readonly kind: string;
  /** Single-valued statements of one slot replace each other ("residence"); absent: multi-valued. */
  readonly slot?: string;
  readonly value: string;
  readonly text: string;
  readonly chunkId: string;
  readonly sourceId: string;
  readonly validFrom: string;
  validTo: string | null;
}

export interface KnowledgeGraph {
  readonly schema: OntologySchema;
  readonly entities: Map<string, GraphEntity>;
  readonly relations: Map<string, GraphRelation>;
  readonly facts: Map<string, GraphFact>;
  readonly chunks: Map<string, GraphChunk>;
  readonly files: Map<string, FileContribution>;
}

/** Adds `delta` mentions of alias `key` (written `surface`) typed `type` from `fileId`. */
export function countMention(
  entity: GraphEntity,
  mention: { key: string; surface: string; type: string; acronymShaped: boolean },
  fileId: string,
  delta: number,
): void {
  const alias = entity.aliases.get(mention.key) ?? { surface: mention.surface, count: 0, acronymShaped: mention.acronymShaped };
  alias.count += delta;
  if (alias.count > 0) entity.aliases.set(mention.key, alias);
  else entity.aliases.delete(mention.key);
  addCount(entity.typeVotes, mention.type, delta);
  addCount(entity.support, fileId, delta);
}

/** Adds `delta` to `map[key]`, deleting the entry at zero. */
export function addCount<K>(map: Map<K, number>, key: K, delta: number): void {
  const next = (map.get(key) ?? 0) + delta;
  if (next > 0) map.set(key, next);
  else map.delete(key);
}

/** Recomputes the display name, key and type from the aliases and votes. */
export function refreshEntity(entity: GraphEntity, schema: OntologySchema): void {
  let best: [string, AliasRecord] | undefined;
  for (const entry of entity.aliases) if (best === undefined || betterName(entry, best)) best = entry;
  if (best !== undefined) {
    entity.key = best[0];
    entity.name = best[1].surface;
  }
  entity.type = votedType(entity.typeVotes, schema) ?? entity.type;
}

function betterName([key, alias]: [string, AliasRecord], [bestKey, bestAlias]: [string, AliasRecord]): boolean {
  if (alias.acronymShaped !== bestAlias.acronymShaped) return !alias.acronymShaped;
  const words = key.split(' ').length;
  const bestWords = bestKey.split(' ').length;
  if (words !== bestWords) return words > bestWords;
  return alias.count > bestAlias.count || (alias.count === bestAlias.count && key < bestKey);
}

function votedType(votes: Map<string, number>, schema: OntologySchema): string | undefined {
  let best: string | undefined;
  let bestScore = -1;
  for (const [type, count] of votes) {
    const score = count + (isGenericType(schema, type) ? 0 : 1e6);
    if (score > bestScore || (score === bestScore && best !== undefined && type < best)) {
      best = type;
      bestScore = score;
    }
  }
  return best;
}

/** A short stable id: a 53-bit hash of `text` in base 36 with a prefix. */
export function stableId(prefix: string, text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return `${prefix}${(4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)}`;
}
