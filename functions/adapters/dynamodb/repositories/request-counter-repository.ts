import type { RequestCounter } from '../../../core/ports';
import { TTL_ATTRIBUTE } from '../table-definition';
import { keys } from '../keys';
import type { Table } from '../table';

/** Per-account request counts by minute, one expiring item each (DynamoDB TTL removes them). */
export class RequestCounterRepository implements RequestCounter {
  constructor(private readonly table: Table) {}

  count(accountId: string, window: number, expiresAtSeconds: number): Promise<number> {
    return this.table.increment(keys.requestWindow(accountId, window), 'requests', 1, { [TTL_ATTRIBUTE]: expiresAtSeconds, kind: 'requestWindow' });
  }
}
