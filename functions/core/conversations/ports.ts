/** The ports of conversations: sessions and their messages. */
import type { Message, MessageRole, Page, PageRequest, Session } from '../model';

/** A session and the message sequence number just taken in it (`SessionStore.nextMessageSequence`). */
export interface SequencedSession {
  session: Session;
  sequence: number;
}

export interface SessionStore {
  /** Throws ConflictError when the id exists. */
  create(session: Session): Promise<void>;
  get(accountId: string, id: string): Promise<Session | undefined>;
  /** The account's sessions of these ids that exist, by id (consistent reads, a hundred ids a request). */
  getMany(accountId: string, ids: readonly string[]): Promise<Map<string, Session>>;
  /** Sets deletedAt once; returns the session as stored, or undefined when it does not exist. */
  markDeleted(accountId: string, id: string, at: string): Promise<Session | undefined>;
  /** Sets endedAt once; returns the session as stored, or undefined when it does not exist. */
  markEnded(accountId: string, id: string, at: string): Promise<Session | undefined>;
  /** Takes the next message's place in the session's writing order (1, 2, ...), answered with the session as
   *  that write left it (one request: a message write needs both); undefined when there is no session. */
  nextMessageSequence(accountId: string, id: string): Promise<SequencedSession | undefined>;
  /** Removes the session's item for good (a restore that failed takes back what it made). */
  delete(accountId: string, id: string): Promise<void>;
}

export interface MessageFilter {
  sessionId?: string;
  customerUserId?: string;
  role?: MessageRole;
}

export interface MessageStore {
  /** Throws ConflictError when the id exists in this account. */
  create(message: Message): Promise<void>;
  get(accountId: string, id: string): Promise<Message | undefined>;
  /** The account's messages of these ids that exist, by id (consistent reads, a hundred ids a request). */
  getMany(accountId: string, ids: readonly string[]): Promise<Map<string, Message>>;
  list(accountId: string, filter: MessageFilter, page: PageRequest): Promise<Page<Message>>;
  delete(accountId: string, id: string): Promise<boolean>;
}
