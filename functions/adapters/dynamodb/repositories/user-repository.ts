import { z } from 'zod';
import type { Page, PageRequest, User } from '../../../core/model';
import type { UserStore } from '../../../core/ports';
import { itemOf, itemSchema, nullable, readAll, storedTimestamp } from '../item-schema';
import { byCreation, keys } from '../keys';
import type { Table } from '../table';

const userItem = itemSchema<User>(
  'user',
  z.object({
    id: z.string(),
    accountId: z.string(),
    firstName: nullable(z.string()),
    lastName: nullable(z.string()),
    email: z.string(),
    phone: nullable(z.string()),
    createdAt: storedTimestamp,
    updatedAt: storedTimestamp,
  }),
);

export class UserRepository implements UserStore {
  constructor(private readonly table: Table) {}

  async create(user: User): Promise<void> {
    const listing = { gsi1pk: keys.usersOf(user.accountId), gsi1sk: byCreation(user.createdAt, user.id) };
    await this.table.create(itemOf(userItem, { ...keys.user(user.accountId, user.id), ...listing }, user));
  }

  async get(accountId: string, id: string): Promise<User | undefined> {
    const item = await this.table.get(keys.user(accountId, id));
    return item ? userItem.read(item) : undefined;
  }

  async list(accountId: string, page: PageRequest): Promise<Page<User>> {
    const partition = keys.usersOf(accountId);
    const result = await this.table.queryPage({ index: 'gsi1', partition, scope: `users|${partition}`, page });
    return { ...result, items: readAll(userItem, result.items) };
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    return (await this.table.delete(keys.user(accountId, id))) !== undefined;
  }
}
