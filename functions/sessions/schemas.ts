/** The sessions group's contract. */
import { z } from 'zod';
import { deleted, idParams, idString, metadataEntries, metadataList, success, timestamp } from '../http/common-schemas';
import { route } from '../http/route-spec';

/** A session is one table item (at most 400 KB): its metadata, keys and values in UTF-8, stays well under 64 KB. */
const sessionMetadata = metadataList({
  maxPairs: 100,
  key: z.string().min(1).max(256),
  minValueChars: 0,
  maxValueChars: 4096,
  maxBytes: 64 * 1024,
});

const createSessionBody = z
  .object({
    sessionID: idString.optional(),
    customerUserID: z.string().min(1).max(256).optional(),
    metadata: sessionMetadata.optional(),
  })
  .meta({
    id: 'CreateSessionRequest',
    example: { sessionID: 'support-chat-42', customerUserID: 'customer-7', metadata: [{ key: 'channel', value: 'web' }] },
  });

const sessionSchema = z
  .object({
    id: z.string(),
    userID: z.string(),
    customerUserID: z.string().nullable(),
    metadata: metadataEntries,
    createdAt: timestamp,
    updatedAt: timestamp,
    deletedAt: timestamp.nullable(),
    endedAt: timestamp.nullable(),
  })
  .meta({ id: 'Session' });

const sessionSummarySchema = z
  .object({
    sessionID: z.string(),
    summary: z.string().meta({ description: 'The session in a few sentences (empty before its first message is summarised)' }),
    keyPoints: z.array(z.string()).meta({ description: 'Up to five short points: the topics the session covered' }),
    messageCount: z.number().int().meta({ description: 'Messages the summary covers' }),
    updatedAt: timestamp,
  })
  .meta({
    id: 'SessionSummary',
    example: {
      sessionID: 'support-chat-42',
      summary: 'The customer wants to move the Lisbon booking to June. The hotel in the old town has rooms then.',
      keyPoints: ['Booking moved to June', 'Hotel in the old town has rooms'],
      messageCount: 12,
      updatedAt: '2026-05-03T10:15:00.000Z',
    },
  });

export const sessionsApi = {
  create: route({
    group: 'sessions',
    method: 'POST',
    path: '/sessions/create',
    operationId: 'createSession',
    summary: 'Create a conversation session (id = sessionID, generated when absent)',
    body: createSessionBody,
    response: success(sessionSchema),
    errors: [400, 401, 403, 413, 500],
  }),
  get: route({
    group: 'sessions',
    method: 'GET',
    path: '/sessions/get/{id}',
    operationId: 'getSession',
    summary: 'Get a session; soft-deleted sessions are returned with deletedAt set',
    params: idParams,
    response: success(sessionSchema),
    errors: [400, 401, 403, 404, 500],
  }),
  end: route({
    group: 'sessions',
    method: 'POST',
    path: '/sessions/end/{id}',
    operationId: 'endSession',
    summary: 'End a session: sets endedAt (the first end wins)',
    params: idParams,
    response: success(sessionSchema),
    errors: [400, 401, 403, 404, 500],
  }),
  summary: route({
    group: 'sessions',
    method: 'GET',
    path: '/sessions/summary/{id}',
    operationId: 'getSessionSummary',
    summary: "A session's summary and key points, kept current as messages arrive (extractive; by the answer model when one is configured)",
    params: idParams,
    response: success(sessionSummarySchema),
    errors: [400, 401, 403, 404, 500],
  }),
  delete: route({
    group: 'sessions',
    method: 'DELETE',
    path: '/sessions/delete/{id}',
    operationId: 'deleteSession',
    summary: 'Soft-delete a session: sets deletedAt and keeps the record',
    params: idParams,
    response: deleted,
    errors: [400, 401, 403, 404, 500],
  }),
};
