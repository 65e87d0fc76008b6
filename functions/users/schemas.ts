/** The users group's contract: request and answer schemas of each route. */
import { z } from 'zod';
import { deleted, issuedIdParams, rule, listOf, pageQuery, success, timestamp } from '../http/common-schemas';
import { route } from '../http/route-spec';

const name = z.string().trim().min(1).max(200);

const createUserBody = z
  .object({
    firstName: name.optional(),
    lastName: name.optional(),
    email: z.email({ error: rule('must be an email address') }).max(320),
    phone: z
      .string()
      .regex(/^\+?[0-9 ().-]{3,32}$/, { error: rule('must be a phone number (digits, spaces, + ( ) . -)') })
      .optional(),
  })
  .meta({ id: 'CreateUserRequest', example: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' } });

const userSchema = z
  .object({
    id: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    email: z.string(),
    phone: z.string().nullable(),
    owner: z.string(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'User' });

/** The calling account's token budget (the console shows it; start-ingestion reserves from it). */
const accountSchema = z.object({
  id: z.string(),
  name: z.string(),
  totalTokenLimit: z.number().int(),
  tokensRemaining: z.number().int(),
  tokensUsed: z.number().int(),
  createdAt: timestamp,
});

export const usersApi = {
  account: route({
    group: 'users',
    method: 'GET',
    path: '/account',
    summary: 'The calling account: its name and token budget (total, remaining, used)',
    response: success(accountSchema),
    errors: [401, 403, 500],
  }),
  create: route({
    group: 'users',
    method: 'POST',
    path: '/users/create',
    operationId: 'createUser',
    summary: 'Create a user owned by the calling account',
    body: createUserBody,
    response: success(userSchema.extend({ userID: z.string() })),
    errors: [400, 401, 403, 413, 500],
  }),
  list: route({
    group: 'users',
    method: 'GET',
    path: '/users/list',
    operationId: 'listUsers',
    summary: 'List users, oldest first',
    list: true,
    query: pageQuery,
    response: listOf('users', userSchema),
    errors: [400, 401, 403, 500],
  }),
  get: route({
    group: 'users',
    method: 'GET',
    path: '/users/get/{id}',
    operationId: 'getUser',
    summary: 'Get one user',
    params: issuedIdParams,
    response: success(userSchema),
    errors: [400, 401, 403, 404, 500],
  }),
  delete: route({
    group: 'users',
    method: 'DELETE',
    path: '/users/delete/{id}',
    operationId: 'deleteUser',
    summary: 'Delete a user',
    params: issuedIdParams,
    response: deleted,
    errors: [400, 401, 403, 404, 500],
  }),
};
