import { z } from 'zod';
import type { Session } from '../../../core/model';
import type { SequencedSession, SessionStore } from '../../../core/conversations/ports';
import { itemOf, itemSchema, nullable, readAll, storedTimestamp } from '../item-schema';
import { byCreation, keys } from '../keys';
import type { Table } from '../table';

/** A session as stored (beside it: `messageSequence`, the ADD counter of its messages' writing order). */
const sessionItem = itemSchema<Session>(
  'session',
  z.object({
    id: z.string(),
    accountId: z.string(),
    customerUserId: nullable(z.string()),
    metadata: z.array(z.object({ key: z.string(), value: z.string() })).default([]),
    createdAt: storedTimestamp,
    updatedAt: storedTimestamp,
    deletedAt: nullable(z.string()),
    endedAt: nullable(z.string()),
  }),
  { stored: { customerUserId: 'customerUserID' } },
);

export class SessionRepository implements SessionStore {
  constructor(private readonly table: Table) {}

  async create(session: Session): Promise<void> {
    const listing = { gsi1pk: keys.sessionsOf(session.accountId), gsi1sk: byCreation(session.createdAt, session.id) };
    await this.table.create(itemOf(sessionItem, { ...keys.session(session.accountId, session.id), ...listing }, session));
  }

  async get(accountId: string, id: string): Promise<Session | undefined> {
    const item = await this.table.get(keys.session(accountId, id));
    return item ? sessionItem.read(item) : undefined;
  }

  async getMany(accountId: string, ids: readonly string[]): Promise<Map<string, Session>> {
    const items = await this.table.getMany([...new Set(ids)].map((id) => keys.session(accountId, id)));
    return new Map(readAll(sessionItem, items).map((session) => [session.id, session]));
  }

  /** The first delete sets deletedAt; later deletes leave the original timestamp. */
  markDeleted(accountId: string, id: string, at: string): Promise<Session | undefined> {
    return this.stampOnce(accountId, id, 'deletedAt', at);
  }

  /** The first end sets endedAt; later ends leave the original timestamp. */
  markEnded(accountId: string, id: string, at: string): Promise<Session | undefined> {
    return this.stampOnce(accountId, id, 'endedAt', at);
  }

  /** One conditional ADD whose answer (the item after it) holds the session too: no read before it. */
  async nextMessageSequence(accountId: string, id: string): Promise<SequencedSession | undefined> {
    const item = await this.table.apply(keys.session(accountId, id), {
      expression: 'ADD messageSequence :one',
      names: {},
      values: { ':one': 1 },
    });
    return item ? { session: sessionItem.read(item), sequence: Number(item.messageSequence) } : undefined;
  }

  async delete(accountId: string, id: string): Promise<void> {
    await this.table.delete(keys.session(accountId, id));
  }

  private async stampOnce(accountId: string, id: string, field: 'deletedAt' | 'endedAt', at: string) {
    const existing = await this.get(accountId, id);
    if (!existing || existing[field]) return existing;
    const item = await this.table.update(keys.session(accountId, id), sessionItem.changes({ [field]: at, updatedAt: at }));
    return item ? sessionItem.read(item) : undefined;
  }
}
