/** MCP tools over conversations: search messages, add a message (creating its session when new). */
import { filterInput, filterParam } from './filter-input';
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { KmemClient, Schemas } from '../../packages/client/src';
import { MESSAGE_ROLES } from '../core/model';
import { answered, fittingItems, leftOutNote, type PresentedItem, present, refused } from './tool-results';

const instant = z.string().describe('ISO 8601 date-time with offset, e.g. 2026-05-01T12:00:00Z');

/** A message hit, once: its content in the text, its id, session, role, time and score as data. */
function presentHit(hit: Schemas['MessageHit'], i: number): PresentedItem<Omit<Schemas['MessageHit'], 'content'>> {
  const { content, ...data } = hit;
  const cut = hit.contentTruncated ? ` [cut; GET /messages/get/${hit.id} has it whole]` : '';
  return {
    text: `[${i + 1}] ${hit.createdAt} session ${hit.sessionID} ${hit.role}: ${content}${cut} (score ${hit.score.toFixed(3)})`,
    data,
  };
}

export function registerConversationTools(server: McpServer, kmem: KmemClient): void {
  server.registerTool(
    'search_messages',
    {
      title: 'Search conversation messages',
      description:
        'Searches messages of the conversations stored in kmem, best match first, optionally within one session, customer, role or time window, or a filter (sessions, customers, roles, session metadata). ' +
        'Use it to recall what was said; each hit names its session and time.',
      inputSchema: z.object({
        query: z.string().min(1).max(2000).describe('What to look for, in natural language'),
        sessionID: z.string().optional().describe('Only this session'),
        customerUserID: z.string().optional().describe('Only messages of this customer'),
        role: z.enum(MESSAGE_ROLES).optional().describe('Only messages of this role'),
        after: instant.optional().describe('Only messages at or after this time (ISO 8601)'),
        before: instant.optional().describe('Only messages before this time (ISO 8601)'),
        topK: z.number().int().min(1).max(100).optional().describe('How many messages (1-100, default 10)'),
        filter: filterInput.optional(),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ filter, ...args }) =>
      present(kmem.searchMessages({ params: { query: { ...args, ...filterParam(filter) } } }), (found) => {
        const { kept, left } = fittingItems(found.messages.map(presentHit));
        const text = kept.length ? kept.map((hit) => hit.text).join('\n') : 'No message matches.';
        const note = leftOutNote(left, 'message', 'ask for a smaller topK or a narrower search');
        return answered(`${text}${note}`, { messages: kept.map((hit) => hit.data), count: kept.length });
      }),
  );

  server.registerTool(
    'add_message',
    {
      title: 'Add a message to a conversation',
      description:
        'Stores one message of a conversation session (the session is created when it does not exist yet). ' +
        'Memories the session is attached to take the message in on their own.',
      inputSchema: z.object({
        sessionID: z.string().min(1).max(128).describe('The conversation: letters, digits, dots, dashes, colons or underscores'),
        role: z.enum(MESSAGE_ROLES).describe('Who said it'),
        content: z.string().min(1).max(100_000).describe('The message text'),
        customerUserID: z.string().min(1).max(256).optional().describe('The customer the conversation is with'),
        createdAt: instant.optional().describe('When it was said, for imported history (default: now)'),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args) => {
      let result = await kmem.createMessage({ body: args });
      if (!result.ok && /^sessionID: session '.*' does not exist/.test(result.error.message)) {
        const session = await kmem.createSession({
          body: { sessionID: args.sessionID, ...(args.customerUserID ? { customerUserID: args.customerUserID } : {}) },
        });
        if (!session.ok) return refused(session.error);
        result = await kmem.createMessage({ body: args });
      }
      if (!result.ok) return refused(result.error);
      const message = result.data.data;
      return answered(`Stored message ${message.id} in session ${message.sessionID} at ${message.createdAt}.`, { message });
    },
  );
}
