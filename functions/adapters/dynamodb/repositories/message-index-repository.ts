/** The pointer to an account's published message index, moved by one conditional write per build. */
import type { MessageIndexPointer, MessageIndexStore } from '../../../core/ports';
import { keys } from '../keys';
import type { Table } from '../table';

export class MessageIndexRepository implements MessageIndexStore {
  constructor(private readonly table: Table) {}

  async get(accountId: string): Promise<MessageIndexPointer | undefined> {
    const item = await this.table.get(keys.messageIndex(accountId));
    return item ? { version: Number(item.version), prefix: String(item.prefix) } : undefined;
  }

  async publish(accountId: string, expectedVersion: number, next: MessageIndexPointer): Promise<boolean> {
    const answer = await this.table.exchange(
      keys.messageIndex(accountId),
      { kind: 'messageIndex', accountId, version: next.version, prefix: next.prefix },
      {
        expression: expectedVersion === 0 ? 'attribute_not_exists(version)' : 'version = :expected',
        names: {},
        values: expectedVersion === 0 ? {} : { ':expected': expectedVersion },
      },
    );
    return answer !== 'refused';
  }
}
