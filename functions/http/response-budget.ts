/**
 * Answers that fit a Lambda response (6 MB for the whole invocation result, in which the body is JSON
 * text inside JSON, so every quote and backslash counts twice). Long texts in lists are cut to
 * LIST_CONTENT_CHARS with `contentTruncated: true` (the item's own route answers it whole), and a page
 * whose items still outgrow RESPONSE_BUDGET_BYTES is answered shorter, its nextToken right after the last
 * item that fit; a page always holds at least one item.
 */
import type { Page, PageRequest } from '../core/model';

/** What one answer may carry, with room to spare under Lambda's 6 MB. */
export const RESPONSE_BUDGET_BYTES = 4 * 1024 * 1024;
/** Characters of a long text a list item carries (the item's own route answers it whole). */
export const LIST_CONTENT_CHARS = 10_000;

/** Bytes `value` takes in a Lambda proxy result: its JSON, escaped again as the `body` string. */
export function wireBytes(value: unknown): number {
  return bodyWireBytes(JSON.stringify(value));
}

/** Bytes a response body (text already) takes in a Lambda proxy result, escaped as the `body` string. */
export function bodyWireBytes(body: string): number {
  return Buffer.byteLength(JSON.stringify(body));
}

/** `text` cut to `limit` characters (never inside a surrogate pair), and whether it was cut. */
export function truncated(text: string, limit: number): { content: string; contentTruncated: boolean } {
  if (text.length <= limit) return { content: text, contentTruncated: false };
  const end = /[\uD800-\uDBFF]/.test(text.charAt(limit - 1)) ? limit - 1 : limit;
  return { content: text.slice(0, end), contentTruncated: true };
}

/** How many of the items, in reading order (from the back when `fromEnd`), fit the budget; at least one. */
function fittingCount(sizes: readonly number[], budget: number, fromEnd = false): number {
  const ordered = fromEnd ? [...sizes].reverse() : sizes;
  let used = 0;
  let count = 0;
  for (const size of ordered) {
    if (count > 0 && used + size > budget) break;
    used += size;
    count += 1;
  }
  return count;
}

/**
 * A page that fits the budget: read as asked, and when its presented items are too large together, read
 * again with the limit that fits (so the page tokens are the store's own). A backward page keeps the items
 * nearest its cursor.
 */
export async function fitPage<T>(
  read: (page: PageRequest) => Promise<Page<T>>,
  page: PageRequest,
  sizeOf: (item: T) => number,
  budget = RESPONSE_BUDGET_BYTES,
): Promise<Page<T>> {
  const first = await read(page);
  const backward = page.previousToken !== undefined && page.nextToken === undefined;
  const count = fittingCount(first.items.map(sizeOf), budget, backward);
  return count >= first.items.length ? first : read({ ...page, limit: count });
}

/**
 * At least `wireBytes(value)`, without serialising: what each part can take at most. A string's UTF-16
 * unit takes at most 7 bytes escaped twice (a control character or lone surrogate: `\\u0001`; other
 * characters 3 bytes of UTF-8 at most), a number 24 characters. A value with `toJSON` (a Date) is measured.
 */
export function wireBytesAtMost(value: unknown): number {
  return 2 + jsonBytesEscapedAtMost(value);
}

function jsonBytesEscapedAtMost(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return 7 * value.length + 4;
    case 'number':
      return 24;
    case 'boolean':
      return 5;
    case 'object':
      if (value === null) return 4;
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return wireBytes(value);
      return Array.isArray(value) ? arrayBytesAtMost(value) : objectBytesAtMost(value as Record<string, unknown>);
    default:
      return 0; // undefined and functions are left out of JSON
  }
}

function arrayBytesAtMost(values: readonly unknown[]): number {
  let bytes = 2;
  for (const value of values) bytes += jsonBytesEscapedAtMost(value) + 1;
  return bytes;
}

function objectBytesAtMost(value: Record<string, unknown>): number {
  let bytes = 2;
  for (const key in value) if (Object.hasOwn(value, key)) bytes += 7 * key.length + 6 + jsonBytesEscapedAtMost(value[key]);
  return bytes;
}

/**
 * The best-first items whose JSON fits the budget (`fittingHead` by `wireBytes`): all of them without
 * serialising any when a bound of their sizes (`wireBytesAtMost`) already fits, as ranked answers do.
 */
export function fittingWireHead<T>(items: readonly T[], budget = RESPONSE_BUDGET_BYTES): T[] {
  let bound = 0;
  for (const item of items) bound += wireBytesAtMost(item);
  return bound <= budget ? [...items] : fittingHead(items, wireBytes, budget);
}

/** The best-first items that fit the budget (a ranked answer drops its tail). */
export function fittingHead<T>(items: readonly T[], sizeOf: (item: T) => number, budget = RESPONSE_BUDGET_BYTES): T[] {
  return items.slice(0, fittingCount(items.map(sizeOf), budget));
}
