import { z } from 'zod';
import { MESSAGE_ROLES, type Message, type Page, type PageRequest } from '../../../core/model';
import type { MessageFilter, MessageStore } from '../../../core/conversations/ports';
import { itemOf, itemSchema, nullable, readAll, storedTimestamp } from '../item-schema';
import { byCreationAndSequence, type IndexName, keys } from '../keys';
import type { QueryFilter, Table } from '../table';

/** A message as stored; `sequence` came later (older messages have none and sort by id among equal times). */
const messageItem = itemSchema<Message>(
  'message',
  z.object({
    id: z.string(),
    accountId: z.string(),
    sessionId: z.string(),
    role: z.enum(MESSAGE_ROLES),
    content: z.string(),
    customerUserId: nullable(z.string()),
    createdAt: storedTimestamp,
    updatedAt: storedTimestamp,
    sequence: z.number().optional(),
  }),
  { stored: { sessionId: 'sessionID', customerUserId: 'customerUserID' } },
);

export class MessageRepository implements MessageStore {
  constructor(private readonly table: Table) {}

  async create(message: Message): Promise<void> {
    const order = byCreationAndSequence(message.createdAt, message.sequence, message.id);
    const listing = {
      gsi1pk: keys.messagesOf(message.accountId),
      gsi1sk: order,
      gsi2pk: keys.messagesOfSession(message.accountId, message.sessionId),
      gsi2sk: order,
      ...(message.customerUserId ? { gsi3pk: keys.messagesOfCustomer(message.accountId, message.customerUserId), gsi3sk: order } : {}),
    };
    await this.table.create(itemOf(messageItem, { ...keys.message(message.accountId, message.id), ...listing }, message));
  }

  async get(accountId: string, id: string): Promise<Message | undefined> {
    const item = await this.table.get(keys.message(accountId, id));
    return item ? messageItem.read(item) : undefined;
  }

  async getMany(accountId: string, ids: readonly string[]): Promise<Map<string, Message>> {
    const items = await this.table.getMany([...new Set(ids)].map((id) => keys.message(accountId, id)));
    return new Map(readAll(messageItem, items).map((message) => [message.id, message]));
  }

  /** The narrowest index serves the query; what it cannot key on becomes a filter. */
  async list(accountId: string, filter: MessageFilter, page: PageRequest): Promise<Page<Message>> {
    const { index, partition } = indexFor(accountId, filter);
    const conditions: string[] = [];
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    if (filter.role) {
      conditions.push('#role = :role');
      names['#role'] = messageItem.attribute('role');
      values[':role'] = filter.role;
    }
    if (filter.sessionId && filter.customerUserId) {
      conditions.push('#customer = :customer');
      names['#customer'] = messageItem.attribute('customerUserId');
      values[':customer'] = filter.customerUserId;
    }
    const queryFilter: QueryFilter | undefined = conditions.length ? { expression: conditions.join(' AND '), names, values } : undefined;
    const scope = `messages|${partition}|${filter.role ?? ''}|${filter.customerUserId ?? ''}`;
    const result = await this.table.queryPage({ index, partition, scope, page, filter: queryFilter });
    return { ...result, items: readAll(messageItem, result.items) };
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    return (await this.table.delete(keys.message(accountId, id))) !== undefined;
  }
}

function indexFor(accountId: string, filter: MessageFilter): { index: IndexName; partition: string } {
  if (filter.sessionId) return { index: 'gsi2', partition: keys.messagesOfSession(accountId, filter.sessionId) };
  if (filter.customerUserId) {
    return { index: 'gsi3', partition: keys.messagesOfCustomer(accountId, filter.customerUserId) };
  }
  return { index: 'gsi1', partition: keys.messagesOf(accountId) };
}
