import { z } from 'zod';
import { ConflictError } from '../../../core/errors';
import type { MemoryFileLink } from '../../../core/model';
import type { LinkStore } from '../../../core/ports';
import { itemOf, itemSchema, nullable, readAll, storedTimestamp } from '../item-schema';
import { keys } from '../keys';
import type { Table } from '../table';

const linkItem = itemSchema<MemoryFileLink>(
  'memoryFile',
  z.object({
    id: z.string(),
    accountId: z.string(),
    memoryId: z.string(),
    fileId: z.string(),
    type: z.literal('file'),
    ingestedAt: nullable(z.string()),
    createdAt: storedTimestamp,
    updatedAt: storedTimestamp,
  }),
);

/** Memory-file links: stored under the memory, indexed under the file (gsi2) for the reverse lookup. */
export class LinkRepository implements LinkStore {
  constructor(private readonly table: Table) {}

  async create(link: MemoryFileLink): Promise<void> {
    await this.table.create(storedLink(link));
  }

  async createMany(links: readonly MemoryFileLink[]): Promise<void> {
    await this.table.putMany(links.map(storedLink));
  }

  async get(accountId: string, memoryId: string, fileId: string): Promise<MemoryFileLink | undefined> {
    const item = await this.table.get(keys.memoryFile(accountId, memoryId, fileId));
    return item ? linkItem.read(item) : undefined;
  }

  async getMany(accountId: string, memoryId: string, fileIds: readonly string[]): Promise<Map<string, MemoryFileLink>> {
    const items = await this.table.getMany([...new Set(fileIds)].map((fileId) => keys.memoryFile(accountId, memoryId, fileId)));
    return new Map(readAll(linkItem, items).map((link) => [link.fileId, link]));
  }

  async listByMemory(accountId: string, memoryId: string): Promise<MemoryFileLink[]> {
    return readAll(linkItem, await this.table.queryAll(keys.memoryPartition(accountId, memoryId), 'FILE#'));
  }

  async listByFile(accountId: string, fileId: string): Promise<MemoryFileLink[]> {
    return readAll(linkItem, await this.table.queryAll(keys.memoriesOfFile(accountId, fileId), undefined, 'gsi2'));
  }

  async markIngested(accountId: string, memoryId: string, fileId: string, at: string, seenUpdatedAt?: string): Promise<boolean> {
    const unchanged =
      seenUpdatedAt === undefined
        ? undefined
        : { expression: '#seen = :seen', names: { '#seen': 'updatedAt' }, values: { ':seen': seenUpdatedAt } };
    try {
      await this.table.update(keys.memoryFile(accountId, memoryId, fileId), linkItem.changes({ ingestedAt: at, updatedAt: at }), unchanged);
      return true;
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      return false; // changed since the ingestion read it: it waits again
    }
  }

  async markChanged(accountId: string, memoryId: string, fileId: string, at: string): Promise<void> {
    await this.table.update(keys.memoryFile(accountId, memoryId, fileId), linkItem.changes({ ingestedAt: null, updatedAt: at }));
  }

  async delete(accountId: string, memoryId: string, fileId: string): Promise<void> {
    await this.table.delete(keys.memoryFile(accountId, memoryId, fileId));
  }

  async deleteMany(accountId: string, links: ReadonlyArray<Pick<MemoryFileLink, 'memoryId' | 'fileId'>>): Promise<void> {
    await this.table.deleteMany(links.map((link) => keys.memoryFile(accountId, link.memoryId, link.fileId)));
  }
}

function storedLink(link: MemoryFileLink) {
  const reverse = { gsi2pk: keys.memoriesOfFile(link.accountId, link.fileId), gsi2sk: link.memoryId };
  return itemOf(linkItem, { ...keys.memoryFile(link.accountId, link.memoryId, link.fileId), ...reverse }, link);
}
