import type { Page, PageRequest, User } from '../../../core/model';
import type { UserStore } from '../../../core/ports';
import { byCreation, keys } from '../keys';
import type { Item, Table } from '../table';
import { nullableString } from './fields';

export class UserRepository implements UserStore {
  constructor(private readonly table: Table) {}

  async create(user: User): Promise<void> {
    await this.table.create({
      ...keys.user(user.accountId, user.id),
      gsi1pk: keys.usersOf(user.accountId),
      gsi1sk: byCreation(user.createdAt, user.id),
      kind: 'user',
      ...user,
    });
  }

  async get(accountId: string, id: string): Promise<User | undefined> {
    const item = await this.table.get(keys.user(accountId, id));
    return item ? toUser(item) : undefined;
  }

  async list(accountId: string, page: PageRequest): Promise<Page<User>> {
    const partition = keys.usersOf(accountId);
    const result = await this.table.queryPage({ index: 'gsi1', partition, scope: `users|${partition}`, page });
    return { ...result, items: result.items.map(toUser) };
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    return (await this.table.delete(keys.user(accountId, id))) !== undefined;
  }
}

function toUser(item: Item): User {
  return {
    id: String(item.id),
    accountId: String(item.accountId),
    firstName: nullableString(item.firstName),
    lastName: nullableString(item.lastName),
    email: String(item.email),
    phone: nullableString(item.phone),
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  };
}
