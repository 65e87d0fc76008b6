/**
 * Lookup structures over a graph's entity aliases, for resolution: alias key → entities, initials of
 * multi-word names → entities, word → entities, character trigram → name entities (blocked by word
 * count and first letter). Kept in step with the
 * entities by `add` / `remove` (which re-index one entity from its current aliases).
 */
import { acronymOf, keyWords } from './normalize';
import type { GraphEntity } from './graph-model';
import { trigrams } from './similarity';

/** Trigrams shared by more entities than this are too common to find look-alikes with. */
const TRIGRAM_POSTING_LIMIT = 400;

export class EntityIndex {
  private readonly byAlias = new Map<string, Set<string>>();
  private readonly byInitials = new Map<string, Set<string>>();
  private readonly byWord = new Map<string, Set<string>>();
  private readonly byTrigram = new Map<string, Set<string>>();
  /** Entity id → the keys it is indexed under, so removal is exact. */
  private readonly indexed = new Map<string, string[]>();

  /** (Re)indexes `entity` under its current aliases. */
  add(entity: GraphEntity): void {
    this.remove(entity.id);
    const entries: string[] = [];
    const put = (map: Map<string, Set<string>>, tag: string, key: string): void => {
      let ids = map.get(key);
      if (ids === undefined) map.set(key, (ids = new Set()));
      if (!ids.has(entity.id)) entries.push(tag + key);
      ids.add(entity.id);
    };
    for (const [key, alias] of entity.aliases) {
      put(this.byAlias, 'a', key);
      if (entity.kind === 'value') continue;
      const initials = alias.acronymShaped ? '' : acronymOf(key);
      if (initials !== '') put(this.byInitials, 'i', initials);
      for (const word of keyWords(key)) put(this.byWord, 'w', word);
      if (entity.kind === 'name') for (const gram of blockedTrigrams(key)) put(this.byTrigram, 't', gram);
    }
    this.indexed.set(entity.id, entries);
  }

  /** Drops every entry of entity `id`. */
  remove(id: string): void {
    const entries = this.indexed.get(id);
    if (entries === undefined) return;
    for (const entry of entries) {
      const map = this.mapOf(entry[0] ?? '');
      const key = entry.slice(1);
      const ids = map.get(key);
      ids?.delete(id);
      if (ids?.size === 0) map.delete(key);
    }
    this.indexed.delete(id);
  }

  /** Entities with alias `key`. */
  withAlias(key: string): ReadonlySet<string> {
    return this.byAlias.get(key) ?? EMPTY;
  }

  /** Entities with a multi-word alias whose initials are `initials`. */
  withInitials(initials: string): ReadonlySet<string> {
    return this.byInitials.get(initials) ?? EMPTY;
  }

  /** Entities having every one of `words` in some alias (capped at `limit`). */
  withWords(words: readonly string[], limit = 200): string[] {
    const postings = words.map((word) => this.byWord.get(word) ?? EMPTY).sort((a, b) => a.size - b.size);
    const [smallest, ...rest] = postings;
    if (smallest === undefined) return [];
    const out: string[] = [];
    for (const id of smallest) {
      if (rest.every((posting) => posting.has(id))) out.push(id);
      if (out.length >= limit) break;
    }
    return out;
  }

  /**
   * Up to `limit` name entities sharing the most trigrams with `key` (at least `minShare` of them),
   * among aliases with the same word count and first letter (fuzzy matching needs both).
   */
  similarByTrigrams(key: string, limit: number, minShare: number): string[] {
    const grams = blockedTrigrams(key);
    const shared = new Map<string, number>();
    for (const gram of grams) {
      const ids = this.byTrigram.get(gram);
      if (ids === undefined || ids.size > TRIGRAM_POSTING_LIMIT) continue;
      for (const id of ids) shared.set(id, (shared.get(id) ?? 0) + 1);
    }
    const needed = Math.max(2, Math.ceil(grams.length * minShare));
    return [...shared]
      .filter(([, count]) => count >= needed)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, limit)
      .map(([id]) => id);
  }

  private mapOf(tag: string): Map<string, Set<string>> {
    if (tag === 'a') return this.byAlias;
    if (tag === 'i') return this.byInitials;
    if (tag === 'w') return this.byWord;
    return this.byTrigram;
  }
}

const EMPTY: ReadonlySet<string> = new Set();

/** Trigrams prefixed with the key's word count and first letter, deduplicated. */
function blockedTrigrams(key: string): string[] {
  const block = `${keyWords(key).length}${key[0] ?? ''}`;
  return [...new Set(trigrams(key))].map((gram) => block + gram);
}
