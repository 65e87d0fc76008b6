/**
 * What every in-memory store builds on: records kept as copies (a caller changing what it wrote or read
 * changes nothing stored, as with a table), keyed by account so no lookup can reach across accounts, and
 * listings paged in the table's order with opaque page tokens bound to their listing.
 */
import { BadRequestError, ConflictError } from '../../core/errors';
import type { Page, PageRequest } from '../../core/model';

/** A copy of a stored value: what goes in or out is never the stored object itself. */
export const copy = <T>(value: T): T => structuredClone(value);

/** `changes` without the fields left undefined (an update writes only what it names). */
export function definedChanges<T extends object>(changes: Partial<T>): Partial<T> {
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** Records of one kind, each under its account and its own key within the account. */
export class AccountRecords<T> {
  private readonly byAccount = new Map<string, Map<string, T>>();

  get(accountId: string, key: string): T | undefined {
    const found = this.byAccount.get(accountId)?.get(key);
    return found === undefined ? undefined : copy(found);
  }

  has(accountId: string, key: string): boolean {
    return this.byAccount.get(accountId)?.has(key) ?? false;
  }

  /** Writes the record whether or not one exists. */
  put(accountId: string, key: string, record: T): void {
    let records = this.byAccount.get(accountId);
    if (!records) {
      records = new Map();
      this.byAccount.set(accountId, records);
    }
    records.set(key, copy(record));
  }

  /** Writes a record that must not exist yet; throws ConflictError when it does. */
  create(accountId: string, key: string, record: T): void {
    if (this.has(accountId, key)) throw new ConflictError('item exists');
    this.put(accountId, key, record);
  }

  /** Deletes the record; answers whether there was one. */
  delete(accountId: string, key: string): boolean {
    return this.byAccount.get(accountId)?.delete(key) ?? false;
  }

  /** Copies of the account's records (with their keys) in key order; only those `keep` holds for, when given (checked before copying). */
  entries(accountId: string, keep?: (record: T) => boolean): Array<[string, T]> {
    const records = this.byAccount.get(accountId);
    if (!records) return [];
    const kept = keep ? [...records].filter(([, record]) => keep(record)) : [...records];
    return kept.sort(([a], [b]) => compare(a, b)).map(([key, record]) => [key, copy(record)]);
  }

  values(accountId: string, keep?: (record: T) => boolean): T[] {
    return this.entries(accountId, keep).map(([, record]) => record);
  }

  /** Every account's records, for whole-store sweeps. */
  *all(): Generator<T> {
    for (const records of this.byAccount.values()) for (const record of records.values()) yield copy(record);
  }

  /**
   * Applies `change` to an existing record when `allowed` holds (else ConflictError); answers the record
   * after, or undefined when there is none.
   */
  update(accountId: string, key: string, change: (record: T) => T, allowed: (record: T) => boolean = () => true): T | undefined {
    const current = this.get(accountId, key);
    if (current === undefined) return undefined;
    if (!allowed(current)) throw new ConflictError('condition failed');
    const next = change(current);
    this.put(accountId, key, next);
    return copy(next);
  }
}

/** Code-unit order, as DynamoDB sorts string keys (UTF-8 order agrees on the characters ids use). */
export const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The table's order of creation listings: creation time, then id. */
export const byCreation = (record: { createdAt: string; id: string }): string => `${record.createdAt}#${record.id}`;

type Direction = 'next' | 'previous';
const TOKEN_VERSION = 'm1';

/** The records `find` finds for `ids`, by id. */
export function foundById<T>(ids: readonly string[], find: (id: string) => T | undefined): Map<string, T> {
  const found = new Map<string, T>();
  for (const id of ids) {
    const record = find(id);
    if (record) found.set(id, record);
  }
  return found;
}

/**
 * One page of `items` in the order of `sortKey`, with tokens for the pages on either side: the same
 * answers as the table's paged queries (a token names its listing, `scope`, and its direction).
 */
export function pageOf<T>(items: readonly T[], sortKey: (item: T) => string, scope: string, page: PageRequest): Page<T> {
  const { direction, position } = startOf(scope, page);
  const keyed = items.map((item) => ({ item, key: sortKey(item) })).sort((a, b) => compare(a.key, b.key));
  const after = keyed.filter(({ key }) => position === undefined || (direction === 'next' ? key > position : key < position));
  const collected = (direction === 'next' ? after : after.reverse()).slice(0, page.limit + 1);
  const hasMore = collected.length > page.limit;
  const window = collected.slice(0, page.limit);
  const ordered = direction === 'next' ? window : window.reverse();
  const first = ordered[0]?.key;
  const last = ordered[ordered.length - 1]?.key;
  const seal = (d: Direction, key: string) => sealToken(scope, d, key);
  if (direction === 'next') {
    return {
      items: ordered.map(({ item }) => item),
      nextToken: hasMore && last !== undefined ? seal('next', last) : null,
      previousToken: position !== undefined ? seal('previous', first ?? position) : null,
    };
  }
  return {
    items: ordered.map(({ item }) => item),
    nextToken: seal('next', last ?? (position as string)),
    previousToken: hasMore && first !== undefined ? seal('previous', first) : null,
  };
}

function startOf(scope: string, page: PageRequest): { direction: Direction; position?: string } {
  if (page.nextToken && page.previousToken) throw BadRequestError.forField('nextToken', 'cannot be combined with previousToken');
  if (page.previousToken) return { direction: 'previous', position: openToken('previousToken', page.previousToken, scope, 'previous') };
  if (page.nextToken) return { direction: 'next', position: openToken('nextToken', page.nextToken, scope, 'next') };
  return { direction: 'next' };
}

function sealToken(scope: string, direction: Direction, position: string): string {
  return `${TOKEN_VERSION}.${Buffer.from(JSON.stringify({ s: scope, d: direction, p: position })).toString('base64url')}`;
}

function openToken(field: string, token: string, scope: string, direction: Direction): string {
  const [version, payload] = token.split('.');
  const sealed = version === TOKEN_VERSION && payload ? parseToken(payload) : undefined;
  if (!sealed || sealed.s !== scope || sealed.d !== direction) {
    throw BadRequestError.forField(field, 'is not a valid page token for this listing');
  }
  return sealed.p;
}

function parseToken(payload: string): { s: string; d: string; p: string } | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { s, d, p } = parsed as Record<string, unknown>;
    return typeof s === 'string' && typeof d === 'string' && typeof p === 'string' ? { s, d, p } : undefined;
  } catch {
    return undefined;
  }
}
