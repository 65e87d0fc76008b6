import type { MemorySessionLink } from '../../../core/model';
import type { SessionLinkStore } from '../../../core/ports';
import { keys } from '../keys';
import type { Item, Table } from '../table';

/** Memory-session links: stored under the memory, indexed under the session (gsi2) for the reverse lookup. */
export class SessionLinkRepository implements SessionLinkStore {
  constructor(private readonly table: Table) {}

  async create(link: MemorySessionLink): Promise<void> {
    await this.table.create({
      ...keys.memorySession(link.accountId, link.memoryId, link.sessionId),
      gsi2pk: keys.memoriesOfSession(link.accountId, link.sessionId),
      gsi2sk: link.memoryId,
      kind: 'memorySession',
      ...link,
    });
  }

  async get(accountId: string, memoryId: string, sessionId: string): Promise<MemorySessionLink | undefined> {
    const item = await this.table.get(keys.memorySession(accountId, memoryId, sessionId));
    return item ? toLink(item) : undefined;
  }

  async listByMemory(accountId: string, memoryId: string): Promise<MemorySessionLink[]> {
    return (await this.table.queryAll(keys.memoryPartition(accountId, memoryId), 'SESSION#')).map(toLink);
  }

  async listBySession(accountId: string, sessionId: string): Promise<MemorySessionLink[]> {
    return (await this.table.queryAll(keys.memoriesOfSession(accountId, sessionId), undefined, 'gsi2')).map(toLink);
  }

  async delete(accountId: string, memoryId: string, sessionId: string): Promise<void> {
    await this.table.delete(keys.memorySession(accountId, memoryId, sessionId));
  }
}

function toLink(item: Item): MemorySessionLink {
  return {
    accountId: String(item.accountId),
    memoryId: String(item.memoryId),
    sessionId: String(item.sessionId),
    createdAt: String(item.createdAt),
  };
}
