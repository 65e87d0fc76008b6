import type { Memory } from '../../../core/model';
import type { MemoryRecordReader } from '../../../core/ports';
import { keys, type TableKey } from '../keys';
import type { Item, Table } from '../table';
import { sourceVersionOf } from './file-repository';
import { memoryOf } from './memory-repository';

/**
 * The memory item and the account's source version item in one consistent BatchGetItem: what every
 * retrieval reads first, in one round trip instead of two GetItems (the same latency on AWS, one request
 * less to serve and sign per query).
 */
export class MemoryRecordRepository implements MemoryRecordReader {
  constructor(private readonly table: Table) {}

  memoryAndSourceVersion(accountId: string, memoryId: string): { memory: Promise<Memory | undefined>; sourceVersion: Promise<number> } {
    const memoryKey = keys.memory(accountId, memoryId);
    const versionKey = keys.fileSourceVersion(accountId);
    const items = this.table.getMany([memoryKey, versionKey]);
    const itemAt = (key: TableKey) => items.then((found) => found.find((item: Item) => item.pk === key.pk && item.sk === key.sk));
    return { memory: itemAt(memoryKey).then(memoryOf), sourceVersion: itemAt(versionKey).then(sourceVersionOf) };
  }
}
