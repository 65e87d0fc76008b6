/** How the MCP tools answer: text an agent can read at once, the structured data beside it, errors in the API's words. */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { KmemResult } from '../../packages/client/src';

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

/** Compact JSON for structured fields shown in text. */
export const compact = (value: unknown): string => JSON.stringify(value);
