/** How the MCP tools answer: text an agent can read at once, the structured data beside it, errors in the API's words. */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { KmemResult } from '../../packages/client/src';
import { fittingHead, RESPONSE_BUDGET_BYTES, wireBytes } from '../http/response-budget';

/** A successful tool answer: `text` for the model, `data` as structured content. */
export function answered(text: string, data: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: data };
}

/** A refused call: the API's message, its status, and what to do about it when that is clear. */
export function refused(error: { status: number; code: string; message: string }, hint?: string): CallToolResult {
  const where = error.status === 0 ? 'kmem could not be reached' : `kmem answered ${error.status} ${error.code}`;
  return { isError: true, content: [{ type: 'text', text: `${where}: ${error.message}${hint ? `\n${hint}` : ''}` }] };
}

/** Runs a client call and presents its data, or answers its error. */
export async function present<T>(
  call: Promise<KmemResult<T>>,
  show: (data: T) => CallToolResult | Promise<CallToolResult>,
): Promise<CallToolResult> {
  const result = await call;
  return result.ok ? show(result.data) : refused(result.error);
}

/** One item of a list answer, sent once: its text for the model, its ids, times and scores as data. */
export interface PresentedItem<D> {
  text: string;
  data: D;
}

/** Room in the response budget kept for the JSON-RPC envelope and the answer's few fixed words. */
const ENVELOPE_BYTES = 16 * 1024;

/**
 * The best-first head of `items` that fits one response (functions/http/response-budget.ts) beside
 * `rest`, the answer's other fields (counted twice: they may show in the text and in the data), and how
 * many were left out. At least one item is kept; an answer still too large is refused by POST /mcp.
 */
export function fittingItems<D>(items: readonly PresentedItem<D>[], rest: unknown = {}): { kept: PresentedItem<D>[]; left: number } {
  const budget = RESPONSE_BUDGET_BYTES - ENVELOPE_BYTES - 2 * wireBytes(rest);
  const kept = fittingHead(items, (item) => wireBytes(item.text) + wireBytes(item.data), budget);
  return { kept, left: items.length - kept.length };
}

/** What an agent reads when items were left out of an answer: how many, and how to get them. */
export function leftOutNote(left: number, what: string, ask: string): string {
  return left > 0 ? `\n\n(${left} more ${what}(s) did not fit in one answer: ${ask}.)` : '';
}
