import { z } from 'zod';
import type { ExportStore, MemoryExport } from '../../../core/portable/ports';
import { itemOf, itemSchema, nullable, storedTimestamp } from '../item-schema';
import { keys } from '../keys';
import type { Table } from '../table';

const exportItem = itemSchema<MemoryExport>(
  'memoryExport',
  z.object({
    id: z.string(),
    accountId: z.string(),
    memoryId: z.string(),
    state: z.enum(['running', 'completed', 'failed']),
    archiveKey: z.string(),
    size: nullable(z.number()),
    error: nullable(z.string()),
    createdAt: storedTimestamp,
    updatedAt: storedTimestamp,
  }),
);

/** Memory exports, one item each (pattern 38 of docs/data-model.md). */
export class ExportRepository implements ExportStore {
  constructor(private readonly table: Table) {}

  async create(memoryExport: MemoryExport): Promise<void> {
    await this.table.create(itemOf(exportItem, keys.memoryExport(memoryExport.accountId, memoryExport.id), memoryExport));
  }

  async get(accountId: string, id: string): Promise<MemoryExport | undefined> {
    const item = await this.table.get(keys.memoryExport(accountId, id));
    return item ? exportItem.read(item) : undefined;
  }

  async update(accountId: string, id: string, changes: Partial<MemoryExport>): Promise<void> {
    await this.table.update(keys.memoryExport(accountId, id), exportItem.changes(changes));
  }
}
