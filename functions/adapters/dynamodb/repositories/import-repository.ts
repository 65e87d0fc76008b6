import { z } from 'zod';
import { FILE_TYPES } from '../../../core/model';
import type { FileImport } from '../../../core/files/bulk-import';
import type { ImportStore } from '../../../core/files/ports';
import { itemOf, itemSchema, nullable, storedTimestamp } from '../item-schema';
import { keys } from '../keys';
import type { Table } from '../table';

const importItem = itemSchema<FileImport>(
  'import',
  z.object({
    id: z.string(),
    accountId: z.string(),
    source: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('archive'), key: z.string(), name: z.string() }),
      z.object({ kind: z.literal('s3'), bucket: z.string(), prefix: z.string() }),
    ]),
    memoryId: nullable(z.string()),
    fileType: nullable(z.enum(FILE_TYPES)),
    prune: z.boolean(),
    metadata: z.array(z.object({ key: z.string(), value: z.string() })).default([]),
    state: z.enum(['running', 'completed', 'failed']),
    total: z.number(),
    created: z.number(),
    updated: z.number(),
    unchanged: z.number(),
    deleted: z.number(),
    failed: z.number(),
    errors: z.array(z.object({ sourceKey: z.string(), error: z.string() })),
    position: z.number(),
    refreshMemoryIds: z.array(z.string()),
    createdAt: storedTimestamp,
    updatedAt: storedTimestamp,
  }),
);

/** Bulk imports, one item each (their errors are capped, so an item stays small). */
export class ImportRepository implements ImportStore {
  constructor(private readonly table: Table) {}

  async create(fileImport: FileImport): Promise<void> {
    await this.table.create(itemOf(importItem, keys.fileImport(fileImport.accountId, fileImport.id), fileImport));
  }

  async get(accountId: string, id: string): Promise<FileImport | undefined> {
    const item = await this.table.get(keys.fileImport(accountId, id));
    return item ? importItem.read(item) : undefined;
  }

  async update(accountId: string, id: string, changes: Partial<FileImport>): Promise<void> {
    await this.table.update(keys.fileImport(accountId, id), importItem.changes(changes));
  }
}
