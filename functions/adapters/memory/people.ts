/** Users, sessions and messages, in memory (the semantics of their DynamoDB repositories). */
import type { Message, Page, PageRequest, Session, User } from '../../core/model';
import type { MessageFilter, MessageStore, SequencedSession, SessionStore } from '../../core/conversations/ports';
import type { UserStore } from '../../core/ports';
import { AccountRecords, byCreation, foundById, pageOf } from './records';

export class MemoryUserStore implements UserStore {
  private readonly users = new AccountRecords<User>();

  async create(user: User): Promise<void> {
    this.users.create(user.accountId, user.id, user);
  }

  async get(accountId: string, id: string): Promise<User | undefined> {
    return this.users.get(accountId, id);
  }

  async list(accountId: string, page: PageRequest): Promise<Page<User>> {
    return pageOf(this.users.values(accountId), byCreation, `users|${accountId}`, page);
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    return this.users.delete(accountId, id);
  }
}

export class MemorySessionStore implements SessionStore {
  private readonly sessions = new AccountRecords<Session>();
  private readonly sequences = new AccountRecords<number>();

  async create(session: Session): Promise<void> {
    this.sessions.create(session.accountId, session.id, session);
  }

  async get(accountId: string, id: string): Promise<Session | undefined> {
    return this.sessions.get(accountId, id);
  }

  async getMany(accountId: string, ids: readonly string[]): Promise<Map<string, Session>> {
    return foundById(ids, (id) => this.sessions.get(accountId, id));
  }

  async markDeleted(accountId: string, id: string, at: string): Promise<Session | undefined> {
    return this.stampOnce(accountId, id, 'deletedAt', at);
  }

  async markEnded(accountId: string, id: string, at: string): Promise<Session | undefined> {
    return this.stampOnce(accountId, id, 'endedAt', at);
  }

  async nextMessageSequence(accountId: string, id: string): Promise<SequencedSession | undefined> {
    const session = this.sessions.get(accountId, id);
    if (!session) return undefined;
    const sequence = (this.sequences.get(accountId, id) ?? 0) + 1;
    this.sequences.put(accountId, id, sequence);
    return { session, sequence };
  }

  async delete(accountId: string, id: string): Promise<void> {
    this.sessions.delete(accountId, id);
    this.sequences.delete(accountId, id);
  }

  /** The first stamp sets the field; later ones leave the original timestamp. */
  private stampOnce(accountId: string, id: string, field: 'deletedAt' | 'endedAt', at: string): Session | undefined {
    const existing = this.sessions.get(accountId, id);
    if (!existing || existing[field]) return existing;
    return this.sessions.update(accountId, id, (session) => ({ ...session, [field]: at, updatedAt: at }));
  }
}

/** The order of message listings: creation time, then the place in the session's writing order, then id. */
const messageOrder = (message: Message): string =>
  message.sequence === undefined ? byCreation(message) : `${message.createdAt}#${String(message.sequence).padStart(12, '0')}#${message.id}`;

export class MemoryMessageStore implements MessageStore {
  private readonly messages = new AccountRecords<Message>();

  async create(message: Message): Promise<void> {
    this.messages.create(message.accountId, message.id, message);
  }

  async get(accountId: string, id: string): Promise<Message | undefined> {
    return this.messages.get(accountId, id);
  }

  async getMany(accountId: string, ids: readonly string[]): Promise<Map<string, Message>> {
    return foundById(ids, (id) => this.messages.get(accountId, id));
  }

  async list(accountId: string, filter: MessageFilter, page: PageRequest): Promise<Page<Message>> {
    // filtered before the records are copied: listing one session of a large account copies only its messages
    const matching = this.messages.values(
      accountId,
      (message) =>
        (filter.sessionId === undefined || message.sessionId === filter.sessionId) &&
        (filter.customerUserId === undefined || message.customerUserId === filter.customerUserId) &&
        (filter.role === undefined || message.role === filter.role),
    );
    const scope = `messages|${accountId}|${filter.sessionId ?? ''}|${filter.role ?? ''}|${filter.customerUserId ?? ''}`;
    return pageOf(matching, messageOrder, scope, page);
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    return this.messages.delete(accountId, id);
  }
}
