import { ConflictError } from '../../../core/errors';
import type { MemoryFileLink } from '../../../core/model';
import type { LinkStore } from '../../../core/ports';
import { keys } from '../keys';
import type { Item, Table } from '../table';

/** Memory-file links: stored under the memory, indexed under the file (gsi2) for the reverse lookup. */
export class LinkRepository implements LinkStore {
  constructor(private readonly table: Table) {}

  async create(link: MemoryFileLink): Promise<void> {
    await this.table.create(linkItem(link));
  }

  async createMany(links: readonly MemoryFileLink[]): Promise<void> {
    await this.table.putMany(links.map(linkItem));
  }

  async get(accountId: string, memoryId: string, fileId: string): Promise<MemoryFileLink | undefined> {
    const item = await this.table.get(keys.memoryFile(accountId, memoryId, fileId));
    return item ? toLink(item) : undefined;
  }

  async getMany(accountId: string, memoryId: string, fileIds: readonly string[]): Promise<Map<string, MemoryFileLink>> {
    const items = await this.table.getMany([...new Set(fileIds)].map((fileId) => keys.memoryFile(accountId, memoryId, fileId)));
    return new Map(items.map(toLink).map((link) => [link.fileId, link]));
  }

  async listByMemory(accountId: string, memoryId: string): Promise<MemoryFileLink[]> {
    return (await this.table.queryAll(keys.memoryPartition(accountId, memoryId), 'FILE#')).map(toLink);
  }

  async listByFile(accountId: string, fileId: string): Promise<MemoryFileLink[]> {
    return (await this.table.queryAll(keys.memoriesOfFile(accountId, fileId), undefined, 'gsi2')).map(toLink);
  }

  async markIngested(accountId: string, memoryId: string, fileId: string, at: string, seenUpdatedAt?: string): Promise<void> {
    const unchanged = seenUpdatedAt === undefined
      ? undefined
      : { expression: '#seen = :seen', names: { '#seen': 'updatedAt' }, values: { ':seen': seenUpdatedAt } };
    try {
      await this.table.update(keys.memoryFile(accountId, memoryId, fileId), { ingestedAt: at, updatedAt: at }, unchanged);
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error; // changed since the ingestion read it: it waits again
    }
  }

  async markChanged(accountId: string, memoryId: string, fileId: string, at: string): Promise<void> {
    await this.table.update(keys.memoryFile(accountId, memoryId, fileId), { ingestedAt: null, updatedAt: at });
  }

  async delete(accountId: string, memoryId: string, fileId: string): Promise<void> {
    await this.table.delete(keys.memoryFile(accountId, memoryId, fileId));
  }
}

function toLink(item: Item): MemoryFileLink {
  return {
    id: String(item.id),
    accountId: String(item.accountId),
    memoryId: String(item.memoryId),
    fileId: String(item.fileId),
    type: 'file',
    ingestedAt: (item.ingestedAt ?? null) as string | null,
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  };
}

function linkItem(link: MemoryFileLink) {
  return {
    ...keys.memoryFile(link.accountId, link.memoryId, link.fileId),
    gsi2pk: keys.memoriesOfFile(link.accountId, link.fileId),
    gsi2sk: link.memoryId,
    kind: 'memoryFile',
    ...link,
  };
}
