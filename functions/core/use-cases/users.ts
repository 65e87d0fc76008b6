/** Users owned by an account. */
import { BadRequestError, ConflictError, NotFoundError } from '../errors';
import type { Page, PageRequest, User } from '../model';
import type { Clock, IdGenerator, UserStore } from '../ports';

export interface UserDeps {
  users: UserStore;
  clock: Clock;
  ids: IdGenerator;
}

export interface NewUser {
  firstName?: string;
  lastName?: string;
  email: string;
  phone?: string;
}

export async function createUser(deps: UserDeps, accountId: string, input: NewUser): Promise<User> {
  const now = deps.clock.now().toISOString();
  const user: User = {
    id: deps.ids.uuid(),
    accountId,
    firstName: input.firstName ?? null,
    lastName: input.lastName ?? null,
    email: input.email,
    phone: input.phone ?? null,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await deps.users.create(user);
  } catch (error) {
    if (error instanceof ConflictError) throw BadRequestError.forField('id', 'a user with this id already exists');
    throw error;
  }
  return user;
}

export async function getUser(deps: UserDeps, accountId: string, id: string): Promise<User> {
  const user = await deps.users.get(accountId, id);
  if (!user) throw NotFoundError.of('user', id);
  return user;
}

export function listUsers(deps: UserDeps, accountId: string, page: PageRequest): Promise<Page<User>> {
  return deps.users.list(accountId, page);
}

export async function deleteUser(deps: UserDeps, accountId: string, id: string): Promise<void> {
  if (!(await deps.users.delete(accountId, id))) throw NotFoundError.of('user', id);
}
