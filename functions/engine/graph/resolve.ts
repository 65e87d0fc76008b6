/**
 * Entity resolution: maps each new mention to a canonical node of the memory's graph, creating one
 * when nothing matches, incrementally (the nodes of earlier files are the candidates of later ones).
 *
 * Order of checks for a mention (rules and thresholds in `entity-match.ts`):
 * 1. an acronym the same file defined ("World Health Organization (WHO)") → that node;
 * 2. a short name ("Curie") that abbreviates exactly one node this file mentions → that node;
 * 3. exact alias key → that node (type-compatible; same-file, then same-type, then most-mentioned);
 * 4. acronym ↔ initials, unambiguous among nodes this file mentions (three letters are too many
 *    things across a memory; an acronym defined once becomes an alias, found by step 3 later);
 * 5. abbreviation either way, unambiguous (a long name joins a
 *    node known only by short forms of it); 6. fuzzy / word-vector match among trigram and head-word
 *    candidates, best Jaro-Winkler first;
 * 7. otherwise a new node. Values (dates) and pattern types (versions, error codes) match exactly only.
 * "Unambiguous" means one candidate node, or one among those the current file already mentions.
 * Types are compatible when equal or when either is the ontology's generic type.
 */
import { matchReason, type MatchContext, type MatchReason, type MentionKind, type NameForm } from './entity-match';
import { EntityIndex } from './entity-index';
import { countMention, refreshEntity, stableId, type GraphEntity, type KnowledgeGraph } from './graph-model';
import { acronymOf, keyWords } from './normalize';
import { isGenericType } from './ontology';
import { jaroWinkler } from './similarity';

/** A mention to resolve. */
export interface ResolvableMention extends NameForm {
  readonly surface: string;
  readonly type: string;
  /** Exact-match only (values, versions, error codes). */
  readonly exactOnly: boolean;
}

export type ResolutionReason = 'new' | 'defined-acronym' | MatchReason;

export interface Resolution {
  readonly entityId: string;
  readonly reason: ResolutionReason;
}

const FUZZY_CANDIDATES = 12;
const FUZZY_MIN_SHARE = 0.4;
const HEAD_CANDIDATES = 60;

export class EntityResolver {
  readonly index = new EntityIndex();

  constructor(
    private readonly graph: Pick<KnowledgeGraph, 'entities' | 'schema'>,
    private readonly context: MatchContext,
  ) {}

  /** Resolves `mention` from `fileId`, counts it on its node, and says why it went there. */
  resolve(mention: ResolvableMention, fileId: string, definedAcronyms: ReadonlyMap<string, string>): Resolution {
    const found = this.find(mention, fileId, definedAcronyms);
    const entity = found ? this.entity(found.entityId) : undefined;
    const target = entity ?? this.create(mention);
    const isNewAlias = !target.aliases.has(mention.key);
    countMention(target, mention, fileId, 1);
    refreshEntity(target, this.graph.schema);
    if (isNewAlias) this.index.add(target);
    return found && entity ? found : { entityId: target.id, reason: 'new' };
  }

  private find(mention: ResolvableMention, fileId: string, defined: ReadonlyMap<string, string>): Resolution | undefined {
    const definedId = mention.acronymShaped ? defined.get(mention.key) : undefined;
    if (definedId !== undefined && this.graph.entities.has(definedId)) return { entityId: definedId, reason: 'defined-acronym' };
    const inFile = mention.kind === 'name' && !mention.exactOnly ? this.abbreviationTargets(mention, fileId, true) : [];
    if (inFile.length === 1 && inFile[0] !== undefined) return { entityId: inFile[0], reason: 'abbreviation' };
    const exact = this.pick([...this.index.withAlias(mention.key)], mention, fileId);
    if (exact !== undefined) return { entityId: exact, reason: 'exact' };
    if (mention.exactOnly || mention.kind === 'value') return undefined;
    return mention.kind === 'name' ? this.findName(mention, fileId) : this.findSimilar(mention);
  }

  private findName(mention: ResolvableMention, fileId: string): Resolution | undefined {
    const acronym = this.unambiguous(
      this.acronymTargets(mention).filter((id) => this.entity(id).support.has(fileId)),
      fileId,
    );
    if (acronym !== undefined) return { entityId: acronym, reason: 'acronym' };
    const abbreviation = this.unambiguous(this.abbreviationTargets(mention, fileId, false), fileId);
    if (abbreviation !== undefined) return { entityId: abbreviation, reason: 'abbreviation' };
    return this.findSimilar(mention);
  }

  /** Nodes the acronym stands for, or nodes known only by the acronym of this long name. */
  private acronymTargets(mention: ResolvableMention): string[] {
    if (mention.acronymShaped) return this.compatible([...this.index.withInitials(mention.key)], mention);
    const initials = acronymOf(mention.key);
    if (initials === '') return [];
    const ids = [...this.index.withAlias(initials), ...this.index.withAlias(`${initials}s`)];
    return this.compatible(ids, mention).filter((id) => [...this.entity(id).aliases.values()].every((alias) => alias.acronymShaped));
  }

  /** Nodes with a longer alias this name abbreviates, or known only by short forms of this name. */
  private abbreviationTargets(mention: ResolvableMention, fileId: string, onlyInFile: boolean): string[] {
    const words = keyWords(mention.key);
    const longer = this.index.withWords(words).filter((id) => {
      const entity = this.entity(id);
      if (onlyInFile && !entity.support.has(fileId)) return false;
      return entity.kind === 'name' && this.hasMatchingAlias(entity, mention, 'abbreviation', (key) => keyWords(key).length > words.length);
    });
    if (onlyInFile) return this.compatible(longer, mention);
    const shorter = subKeys(words)
      .flatMap((key) => [...this.index.withAlias(key)])
      .filter((id) => {
        const entity = this.entity(id);
        return entity.kind === 'name' && [...entity.aliases.keys()].every((key) => this.reason(mention, entity, key) === 'abbreviation');
      });
    return this.compatible([...longer, ...shorter], mention);
  }

  /** Best fuzzy or word-vector match among trigram and head-word candidates. */
  private findSimilar(mention: ResolvableMention): Resolution | undefined {
    let best: { id: string; reason: MatchReason; score: number } | undefined;
    for (const id of new Set(this.compatible(this.similarCandidates(mention), mention))) {
      const entity = this.entity(id);
      if (entity.kind !== mention.kind) continue;
      const match = this.bestSimilarAlias(mention, entity);
      if (match !== undefined && (best === undefined || match.score > best.score)) best = { id, ...match };
    }
    return best === undefined ? undefined : { entityId: best.id, reason: best.reason };
  }

  /** A phrase's candidates share its head word (when there are word vectors); a name's share its trigrams. */
  private similarCandidates(mention: ResolvableMention): string[] {
    if (mention.kind !== 'phrase') return this.index.similarByTrigrams(mention.key, FUZZY_CANDIDATES, FUZZY_MIN_SHARE);
    return this.context.vectors === undefined ? [] : this.index.withWords(keyWords(mention.key).slice(-1), HEAD_CANDIDATES);
  }

  /** The entity's alias closest to the mention (Jaro-Winkler) among those matching it fuzzily or by vector. */
  private bestSimilarAlias(mention: ResolvableMention, entity: GraphEntity): { reason: MatchReason; score: number } | undefined {
    let best: { reason: MatchReason; score: number } | undefined;
    for (const key of entity.aliases.keys()) {
      const reason = this.reason(mention, entity, key);
      if (reason !== 'fuzzy' && reason !== 'vector') continue;
      const score = jaroWinkler(mention.key, key);
      if (best === undefined || score > best.score) best = { reason, score };
    }
    return best;
  }

  private hasMatchingAlias(entity: GraphEntity, mention: ResolvableMention, wanted: MatchReason, keep: (key: string) => boolean): boolean {
    for (const key of entity.aliases.keys()) if (keep(key) && this.reason(mention, entity, key) === wanted) return true;
    return false;
  }

  private reason(mention: ResolvableMention, entity: GraphEntity, key: string): MatchReason | undefined {
    const alias = entity.aliases.get(key);
    if (alias === undefined) return undefined;
    return matchReason(mention, { key, kind: entity.kind, acronymShaped: alias.acronymShaped, type: entity.type }, this.context);
  }

  /** One node: the only candidate, or the only one the file already mentions. */
  private unambiguous(ids: readonly string[], fileId: string): string | undefined {
    const distinct = [...new Set(ids)];
    if (distinct.length === 1) return distinct[0];
    const inFile = distinct.filter((id) => this.entity(id).support.has(fileId));
    return inFile.length === 1 ? inFile[0] : undefined;
  }

  /** Among exact matches: same file, then same type, then most mentioned. */
  private pick(ids: readonly string[], mention: ResolvableMention, fileId: string): string | undefined {
    const ranked = this.compatible(ids, mention).map((id) => this.entity(id));
    const score = (entity: GraphEntity): number =>
      (entity.support.has(fileId) ? 4 : 0) + (entity.type === mention.type ? 2 : 0) + (entity.kind === mention.kind ? 8 : 0);
    ranked.sort((a, b) => score(b) - score(a) || total(b) - total(a) || (a.id < b.id ? -1 : 1));
    return ranked[0]?.id;
  }

  private compatible(ids: readonly string[], mention: ResolvableMention): string[] {
    const { schema } = this.graph;
    return ids.filter((id) => {
      const entity = this.graph.entities.get(id);
      if (entity === undefined || !kindsCompatible(entity.kind, mention.kind)) return false;
      return entity.type === mention.type || isGenericType(schema, entity.type) || isGenericType(schema, mention.type);
    });
  }

  private create(mention: ResolvableMention): GraphEntity {
    let id = stableId('e', `${mention.kind}\u0000${mention.key}`);
    for (let attempt = 2; this.graph.entities.has(id); attempt++) id = stableId('e', `${mention.kind}\u0000${mention.key}\u0000${attempt}`);
    const entity: GraphEntity = {
      id,
      kind: mention.kind,
      name: mention.surface,
      key: mention.key,
      type: mention.type,
      aliases: new Map(),
      typeVotes: new Map(),
      support: new Map(),
    };
    this.graph.entities.set(id, entity);
    return entity;
  }

  private entity(id: string): GraphEntity {
    const entity = this.graph.entities.get(id);
    if (entity === undefined) throw new Error(`graph: unknown entity ${id}`);
    return entity;
  }
}

function kindsCompatible(a: MentionKind, b: MentionKind): boolean {
  return a === b;
}

function total(entity: GraphEntity): number {
  let sum = 0;
  for (const count of entity.support.values()) sum += count;
  return sum;
}

/** Keys of the proper in-order subsets of up to 4 words (all of them for short names). */
function subKeys(words: readonly string[]): string[] {
  if (words.length < 2 || words.length > 5) return words.length > 5 ? [words[words.length - 1] ?? ''] : [];
  const out: string[] = [];
  for (let mask = 1; mask < (1 << words.length) - 1; mask++) {
    out.push(words.filter((_, index) => mask & (1 << index)).join(' '));
  }
  return out;
}
