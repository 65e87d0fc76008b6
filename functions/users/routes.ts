/** The users group: each route calls one use case and shapes the answer. */
import type { Container } from '../adapters/container';
import type { User } from '../core/model';
import { getAccount } from '../core/use-cases/accounts';
import { createUser, deleteUser, getUser, listUsers } from '../core/use-cases/users';
import { dataResponse, deletedResponse, listResponse } from '../http/responses';
import { bind, type BoundRoute } from '../http/handler';
import { usersApi } from './schemas';

function presentUser(user: User) {
  return {
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    phone: user.phone,
    owner: user.accountId,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
  };
}

export const userRoutes = (deps: Container): BoundRoute[] => [
  bind(usersApi.account, async (_input, { accountId }) => {
    const account = await getAccount(deps, accountId);
    const { id, name, totalTokenLimit, tokensRemaining, createdAt } = account;
    return dataResponse({ id, name, totalTokenLimit, tokensRemaining, tokensUsed: totalTokenLimit - tokensRemaining, createdAt });
  }),
  bind(usersApi.create, async ({ body }, { accountId }) => {
    const user = await createUser(deps, accountId, body);
    return dataResponse({ ...presentUser(user), userID: user.id });
  }),
  bind(usersApi.list, async ({ query }, { accountId }) => listResponse('users', await listUsers(deps, accountId, query), presentUser)),
  bind(usersApi.get, async ({ params }, { accountId }) => dataResponse(presentUser(await getUser(deps, accountId, params.id)))),
  bind(usersApi.delete, async ({ params }, { accountId }) => {
    await deleteUser(deps, accountId, params.id);
    return deletedResponse(`user '${params.id}' deleted`);
  }),
];
