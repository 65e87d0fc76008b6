import { z } from 'zod';
import type { MemorySessionLink } from '../../../core/model';
import type { SessionLinkStore } from '../../../core/ports';
import { itemOf, itemSchema, readAll, storedTimestamp } from '../item-schema';
import { keys } from '../keys';
import type { Table } from '../table';

const sessionLinkItem = itemSchema<MemorySessionLink>(
  'memorySession',
  z.object({ accountId: z.string(), memoryId: z.string(), sessionId: z.string(), createdAt: storedTimestamp }),
);

/** Memory-session links: stored under the memory, indexed under the session (gsi2) for the reverse lookup. */
export class SessionLinkRepository implements SessionLinkStore {
  constructor(private readonly table: Table) {}

  async create(link: MemorySessionLink): Promise<void> {
    const reverse = { gsi2pk: keys.memoriesOfSession(link.accountId, link.sessionId), gsi2sk: link.memoryId };
    await this.table.create(
      itemOf(sessionLinkItem, { ...keys.memorySession(link.accountId, link.memoryId, link.sessionId), ...reverse }, link),
    );
  }

  async get(accountId: string, memoryId: string, sessionId: string): Promise<MemorySessionLink | undefined> {
    const item = await this.table.get(keys.memorySession(accountId, memoryId, sessionId));
    return item ? sessionLinkItem.read(item) : undefined;
  }

  async listByMemory(accountId: string, memoryId: string): Promise<MemorySessionLink[]> {
    return readAll(sessionLinkItem, await this.table.queryAll(keys.memoryPartition(accountId, memoryId), 'SESSION#'));
  }

  async listBySession(accountId: string, sessionId: string): Promise<MemorySessionLink[]> {
    return readAll(sessionLinkItem, await this.table.queryAll(keys.memoriesOfSession(accountId, sessionId), undefined, 'gsi2'));
  }

  async delete(accountId: string, memoryId: string, sessionId: string): Promise<void> {
    await this.table.delete(keys.memorySession(accountId, memoryId, sessionId));
  }
}
