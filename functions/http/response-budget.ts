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

/** The best-first items that fit the budget (a ranked answer drops its tail). */
export function fittingHead<T>(items: readonly T[], sizeOf: (item: T) => number, budget = RESPONSE_BUDGET_BYTES): T[] {
  return items.slice(0, fittingCount(items.map(sizeOf), budget));
}
