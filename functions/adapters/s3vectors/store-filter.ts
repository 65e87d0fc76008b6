/**
 * kmem's filter conditions as an S3 Vectors metadata filter (operators `$eq $in $gte $lt $or $and`, over
 * the names of ./stored-metadata.ts). The filter never leaves out a vector that satisfies the conditions;
 * it is `exact` when it also keeps no vector that does not. It is not exact for a source-key prefix (the
 * store has no prefix operator: it matches the longest `/` or `:` prefix kept in `p`, or any vector whose
 * prefixes were cut) nor for metadata (a vector whose pairs were cut is kept): those results are
 * post-filtered (functions/adapters/s3vectors/s3vectors-tier.ts).
 */
import type { VectorConditions } from '../../core/vector-tier/ports';
import { metadataKey } from './stored-metadata';

/** A metadata filter document (JSON). */
export interface FilterDocument {
  [key: string]: FilterValue;
}
type FilterValue = string | number | boolean | FilterValue[] | FilterDocument;

export interface StoreFilter {
  /** Absent when nothing is filtered. */
  readonly filter?: FilterDocument;
  /** Whether the store's answer needs no post-filter. */
  readonly exact: boolean;
}

const anyOf = (name: string, values: readonly string[] | undefined): FilterDocument[] =>
  values === undefined ? [] : [{ [name]: { $in: [...values] } }];

/** The longest part of `prefix` that ends at a `/` or `:` (empty when none does). */
export function boundaryPrefix(prefix: string): string {
  const cut = Math.max(prefix.lastIndexOf('/'), prefix.lastIndexOf(':'));
  return prefix.slice(0, cut + 1);
}

function prefixClauses(prefix: string | undefined): FilterDocument[] {
  if (prefix === undefined) return [];
  const boundary = prefix.endsWith('/') || prefix.endsWith(':') ? prefix : boundaryPrefix(prefix);
  if (!boundary) return [];
  const equal = [...new Set([boundary, prefix])].map((value) => ({ p: { $eq: value } }));
  return [{ $or: [...equal, { xp: { $eq: true } }] }];
}

function metadataClauses(metadata: VectorConditions['metadata']): FilterDocument[] {
  return Object.entries(metadata ?? {}).map(([key, wanted]) => ({
    $or: [{ [metadataKey(key)]: { $in: typeof wanted === 'string' ? [wanted] : [...wanted] } }, { xm: { $eq: true } }],
  }));
}

function timeClauses(conditions: VectorConditions): FilterDocument[] {
  return [
    ...(conditions.after === undefined ? [] : [{ c: { $gte: conditions.after } }]),
    ...(conditions.before === undefined ? [] : [{ c: { $lt: conditions.before } }]),
  ];
}

/** The store's filter for `conditions`, and whether it is exact. */
export function storeFilterOf(conditions: VectorConditions = {}): StoreFilter {
  const clauses = [
    ...anyOf('f', conditions.fileIds),
    ...anyOf('t', conditions.fileTypes),
    ...anyOf('s', conditions.sessionIds),
    ...anyOf('u', conditions.userIds),
    ...anyOf('r', conditions.roles),
    ...timeClauses(conditions),
    ...prefixClauses(conditions.sourceKeyPrefix),
    ...metadataClauses(conditions.metadata),
  ];
  const exact = conditions.sourceKeyPrefix === undefined && Object.keys(conditions.metadata ?? {}).length === 0;
  if (clauses.length === 0) return { exact };
  return { filter: clauses.length === 1 ? clauses[0] : { $and: clauses }, exact };
}

/** `filter` narrowed to vectors whose key is not in `seen` (a widening query's next round). */
export function excluding(filter: FilterDocument | undefined, seen: readonly string[]): FilterDocument | undefined {
  if (seen.length === 0) return filter;
  const unseen = { k: { $nin: [...seen] } };
  return filter ? { $and: [filter, unseen] } : unseen;
}
