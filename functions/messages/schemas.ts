/** The messages group's contract. */
import { z } from 'zod';
import { MESSAGE_ROLES } from '../core/model';
import { deleted, idParams, instant, rule, idString, listOf, pageQuery, success, timestamp, topKQuery } from '../http/common-schemas';
import { route } from '../http/route-spec';
import { filterQuery } from '../http/search-filter';

const role = z.enum(MESSAGE_ROLES, { error: rule(`must be one of ${MESSAGE_ROLES.join(', ')}`) });

const createMessageBody = z
  .object({
    sessionID: idString,
    role,
    content: z.string().min(1).max(100_000),
    id: idString.optional(),
    customerUserID: z.string().min(1).max(256).optional(),
    /** Original time of an imported message (ISO 8601); stored normalised to UTC. */
    createdAt: instant.optional().meta({ description: 'Original time of an imported message (ISO 8601 with offset); now when absent' }),
  })
  .meta({ id: 'CreateMessageRequest', example: { sessionID: 'support-chat-42', role: 'user', content: 'My order 1234 arrived damaged.' } });

const messageSchema = z
  .object({
    id: z.string(),
    sessionID: z.string(),
    role,
    content: z.string(),
    userID: z.string(),
    customerUserID: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Message' });

/** A message in a list or search answer: its content cut to LIST_CONTENT_CHARS (GET /messages/get/{id} has it whole). */
const listedMessageSchema = messageSchema.extend({ contentTruncated: z.boolean() });

const listMessagesQuery = pageQuery.extend({
  sessionID: idString.optional(),
  customerUserID: z.string().min(1).max(256).optional(),
  role: role.optional(),
});

const searchMessagesQuery = z.object({
  query: z.string().min(1).max(2000),
  sessionID: idString.optional(),
  customerUserID: z.string().min(1).max(256).optional(),
  role: role.optional(),
  after: instant.optional(),
  before: instant.optional(),
  filter: filterQuery.optional(),
  topK: topKQuery(10),
});

export const messagesApi = {
  create: route({
    group: 'messages',
    method: 'POST',
    path: '/messages/create',
    operationId: 'createMessage',
    summary: 'Add a message to a session',
    body: createMessageBody,
    response: success(messageSchema),
    errors: [400, 401, 403, 413, 500],
  }),
  list: route({
    group: 'messages',
    method: 'GET',
    path: '/messages/list',
    operationId: 'listMessages',
    summary: 'List messages, oldest first, filtered by session, customer and role',
    list: true,
    query: listMessagesQuery,
    response: listOf('messages', listedMessageSchema),
    errors: [400, 401, 403, 500],
  }),
  search: route({
    group: 'messages',
    method: 'GET',
    path: '/messages/search',
    operationId: 'searchMessages',
    summary: 'Search messages (best first), optionally within a session, customer, role and time window',
    query: searchMessagesQuery,
    response: z.object({
      status: z.literal('success'),
      messages: z.array(listedMessageSchema.extend({ score: z.number() }).meta({ id: 'MessageHit' })),
      count: z.number().int().min(0),
    }),
    errors: [400, 401, 403, 500],
  }),
  get: route({
    group: 'messages',
    method: 'GET',
    path: '/messages/get/{id}',
    summary: 'Get one message with its whole content (lists cut long contents)',
    params: idParams,
    response: success(messageSchema),
    errors: [400, 401, 403, 404, 500],
  }),
  delete: route({
    group: 'messages',
    method: 'DELETE',
    path: '/messages/delete/{id}',
    operationId: 'deleteMessage',
    summary: 'Delete a message',
    params: idParams,
    response: deleted,
    errors: [400, 401, 403, 404, 500],
  }),
};
