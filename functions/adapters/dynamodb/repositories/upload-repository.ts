import { z } from 'zod';
import type { Upload } from '../../../core/model';
import type { UploadStore } from '../../../core/files/ports';
import { itemOf, itemSchema, nullable, storedTimestamp } from '../item-schema';
import { keys } from '../keys';
import type { Table } from '../table';

/** An upload as stored; `fileId` names the file that claimed it (null or absent: unclaimed). */
const uploadItem = itemSchema<Upload>(
  'upload',
  z.object({
    key: z.string(),
    accountId: z.string(),
    name: z.string(),
    size: z.number(),
    contentType: z.string(),
    fileId: nullable(z.string()),
    stagingKey: z.string().optional(),
    createdAt: storedTimestamp,
  }),
);

export class UploadRepository implements UploadStore {
  constructor(private readonly table: Table) {}

  async create(upload: Upload): Promise<void> {
    await this.table.create(itemOf(uploadItem, keys.upload(upload.accountId, upload.key), upload));
  }

  async claim(accountId: string, key: string, fileId: string): Promise<Upload | undefined> {
    const item = await this.table.update(
      keys.upload(accountId, key),
      { fileId },
      {
        expression: 'attribute_not_exists(fileId) OR attribute_type(fileId, :nullType) OR fileId = :mine',
        names: {},
        values: { ':nullType': 'NULL', ':mine': fileId },
      },
    );
    return item ? uploadItem.read(item) : undefined;
  }

  async release(accountId: string, key: string, fileId: string): Promise<void> {
    await this.table.update(
      keys.upload(accountId, key),
      { fileId: null },
      {
        expression: 'fileId = :mine',
        names: {},
        values: { ':mine': fileId },
      },
    );
  }

  async delete(accountId: string, key: string): Promise<void> {
    await this.table.delete(keys.upload(accountId, key));
  }
}
