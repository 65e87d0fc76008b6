import type { Message, MessageRole, Page, PageRequest } from '../../../core/model';
import type { MessageFilter, MessageStore } from '../../../core/ports';
import { byCreationAndSequence, type IndexName, keys } from '../keys';
import type { Item, QueryFilter, Table } from '../table';
import { nullableString } from './fields';

export class MessageRepository implements MessageStore {
  constructor(private readonly table: Table) {}

  async create(message: Message): Promise<void> {
    const order = byCreationAndSequence(message.createdAt, message.sequence, message.id);
    await this.table.create({
      ...keys.message(message.accountId, message.id),
      gsi1pk: keys.messagesOf(message.accountId),
      gsi1sk: order,
      gsi2pk: keys.messagesOfSession(message.accountId, message.sessionID),
      gsi2sk: order,
      ...(message.customerUserID
        ? { gsi3pk: keys.messagesOfCustomer(message.accountId, message.customerUserID), gsi3sk: order }
        : {}),
      kind: 'message',
      ...message,
    });
  }

  async get(accountId: string, id: string): Promise<Message | undefined> {
    const item = await this.table.get(keys.message(accountId, id));
    return item ? toMessage(item) : undefined;
  }

  /** The narrowest index serves the query; what it cannot key on becomes a filter. */
  async list(accountId: string, filter: MessageFilter, page: PageRequest): Promise<Page<Message>> {
    const { index, partition } = indexFor(accountId, filter);
    const conditions: string[] = [];
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    if (filter.role) {
      conditions.push('#role = :role');
      names['#role'] = 'role';
      values[':role'] = filter.role;
    }
    if (filter.sessionID && filter.customerUserID) {
      conditions.push('#customer = :customer');
      names['#customer'] = 'customerUserID';
      values[':customer'] = filter.customerUserID;
    }
    const queryFilter: QueryFilter | undefined = conditions.length
      ? { expression: conditions.join(' AND '), names, values }
      : undefined;
    const scope = `messages|${partition}|${filter.role ?? ''}|${filter.customerUserID ?? ''}`;
    const result = await this.table.queryPage({ index, partition, scope, page, filter: queryFilter });
    return { ...result, items: result.items.map(toMessage) };
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    return (await this.table.delete(keys.message(accountId, id))) !== undefined;
  }
}

function indexFor(accountId: string, filter: MessageFilter): { index: IndexName; partition: string } {
  if (filter.sessionID) return { index: 'gsi2', partition: keys.messagesOfSession(accountId, filter.sessionID) };
  if (filter.customerUserID) {
    return { index: 'gsi3', partition: keys.messagesOfCustomer(accountId, filter.customerUserID) };
  }
  return { index: 'gsi1', partition: keys.messagesOf(accountId) };
}

function toMessage(item: Item): Message {
  return {
    id: String(item.id),
    accountId: String(item.accountId),
    sessionID: String(item.sessionID),
    role: String(item.role) as MessageRole,
    content: String(item.content),
    customerUserID: nullableString(item.customerUserID),
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
    ...(typeof item.sequence === 'number' ? { sequence: item.sequence } : {}),
  };
}
