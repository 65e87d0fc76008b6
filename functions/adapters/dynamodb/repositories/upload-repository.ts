import type { Upload } from '../../../core/model';
import type { UploadStore } from '../../../core/ports';
import { keys } from '../keys';
import type { Item, Table } from '../table';
import { nullableString } from './fields';

export class UploadRepository implements UploadStore {
  constructor(private readonly table: Table) {}

  async create(upload: Upload): Promise<void> {
    await this.table.create({ ...keys.upload(upload.accountId, upload.key), kind: 'upload', ...upload });
  }

  async claim(accountId: string, key: string, fileId: string): Promise<Upload | undefined> {
    const item = await this.table.update(keys.upload(accountId, key), { fileId }, {
      expression: 'attribute_not_exists(fileId) OR attribute_type(fileId, :nullType) OR fileId = :mine',
      names: {},
      values: { ':nullType': 'NULL', ':mine': fileId },
    });
    return item ? toUpload(item) : undefined;
  }

  async release(accountId: string, key: string, fileId: string): Promise<void> {
    await this.table.update(keys.upload(accountId, key), { fileId: null }, {
      expression: 'fileId = :mine',
      names: {},
      values: { ':mine': fileId },
    });
  }

  async delete(accountId: string, key: string): Promise<void> {
    await this.table.delete(keys.upload(accountId, key));
  }
}

function toUpload(item: Item): Upload {
  return {
    key: String(item.key),
    accountId: String(item.accountId),
    name: String(item.name),
    size: Number(item.size),
    contentType: String(item.contentType),
    fileId: nullableString(item.fileId),
    ...(typeof item.stagingKey === 'string' ? { stagingKey: item.stagingKey } : {}),
    createdAt: String(item.createdAt),
  };
}
