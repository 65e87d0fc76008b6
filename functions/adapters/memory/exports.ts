/** Memory exports in memory (the semantics of their DynamoDB repository). */
import type { ExportStore, MemoryExport } from '../../core/portable/ports';
import { AccountRecords } from './records';

export class MemoryExportStore implements ExportStore {
  private readonly exports = new AccountRecords<MemoryExport>();

  async create(memoryExport: MemoryExport): Promise<void> {
    this.exports.create(memoryExport.accountId, memoryExport.id, memoryExport);
  }

  async get(accountId: string, id: string): Promise<MemoryExport | undefined> {
    return this.exports.get(accountId, id);
  }

  async update(accountId: string, id: string, changes: Partial<MemoryExport>): Promise<void> {
    this.exports.update(accountId, id, (found) => ({ ...found, ...changes }));
  }
}
