import type { FileImport } from '../../../core/model';
import type { ImportStore } from '../../../core/ports';
import { keys } from '../keys';
import type { Item, Table } from '../table';

/** Bulk imports, one item each (their errors are capped, so an item stays small). */
export class ImportRepository implements ImportStore {
  constructor(private readonly table: Table) {}

  async create(fileImport: FileImport): Promise<void> {
    await this.table.create({ ...keys.fileImport(fileImport.accountId, fileImport.id), kind: 'import', ...fileImport });
  }

  async get(accountId: string, id: string): Promise<FileImport | undefined> {
    const item = await this.table.get(keys.fileImport(accountId, id));
    return item ? toImport(item) : undefined;
  }

  async update(accountId: string, id: string, changes: Partial<FileImport>): Promise<void> {
    await this.table.update(keys.fileImport(accountId, id), changes);
  }
}

function toImport(item: Item): FileImport {
  const { pk: _pk, sk: _sk, kind: _kind, ...rest } = item;
  return rest as unknown as FileImport;
}
