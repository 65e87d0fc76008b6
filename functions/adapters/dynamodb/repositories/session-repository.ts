import type { MetadataEntry, Session } from '../../../core/model';
import type { SessionStore } from '../../../core/ports';
import { byCreation, keys } from '../keys';
import type { Item, Table } from '../table';
import { nullableString } from './fields';

export class SessionRepository implements SessionStore {
  constructor(private readonly table: Table) {}

  async create(session: Session): Promise<void> {
    await this.table.create({
      ...keys.session(session.accountId, session.id),
      gsi1pk: keys.sessionsOf(session.accountId),
      gsi1sk: byCreation(session.createdAt, session.id),
      kind: 'session',
      ...session,
    });
  }

  async get(accountId: string, id: string): Promise<Session | undefined> {
    const item = await this.table.get(keys.session(accountId, id));
    return item ? toSession(item) : undefined;
  }

  /** The first delete sets deletedAt; later deletes leave the original timestamp. */
  markDeleted(accountId: string, id: string, at: string): Promise<Session | undefined> {
    return this.stampOnce(accountId, id, 'deletedAt', at);
  }

  /** The first end sets endedAt; later ends leave the original timestamp. */
  markEnded(accountId: string, id: string, at: string): Promise<Session | undefined> {
    return this.stampOnce(accountId, id, 'endedAt', at);
  }

  async nextMessageSequence(accountId: string, id: string): Promise<number | undefined> {
    const item = await this.table.apply(keys.session(accountId, id), { expression: 'ADD messageSequence :one', names: {}, values: { ':one': 1 } });
    return item ? Number(item.messageSequence) : undefined;
  }

  private async stampOnce(accountId: string, id: string, field: 'deletedAt' | 'endedAt', at: string) {
    const existing = await this.get(accountId, id);
    if (!existing || existing[field]) return existing;
    const item = await this.table.update(keys.session(accountId, id), { [field]: at, updatedAt: at });
    return item ? toSession(item) : undefined;
  }
}

function toSession(item: Item): Session {
  return {
    id: String(item.id),
    accountId: String(item.accountId),
    customerUserID: nullableString(item.customerUserID),
    metadata: Array.isArray(item.metadata) ? (item.metadata as MetadataEntry[]) : [],
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
    deletedAt: nullableString(item.deletedAt),
    endedAt: nullableString(item.endedAt),
  };
}
