/** The pointer to an account's published message index, moved by one conditional write per build. */
import { z } from 'zod';
import type { MessageIndexPointer, MessageIndexStore } from '../../../core/ports';
import { itemSchema } from '../item-schema';
import { keys } from '../keys';
import type { Table } from '../table';

const pointerItem = itemSchema<MessageIndexPointer>('messageIndex', z.object({ version: z.number(), prefix: z.string() }));

export class MessageIndexRepository implements MessageIndexStore {
  constructor(private readonly table: Table) {}

  async get(accountId: string): Promise<MessageIndexPointer | undefined> {
    const item = await this.table.get(keys.messageIndex(accountId));
    return item ? pointerItem.read(item) : undefined;
  }

  async publish(accountId: string, expectedVersion: number, next: MessageIndexPointer): Promise<boolean> {
    const answer = await this.table.exchange(
      keys.messageIndex(accountId),
      { ...pointerItem.write(next), accountId },
      {
        expression: expectedVersion === 0 ? 'attribute_not_exists(version)' : 'version = :expected',
        names: {},
        values: expectedVersion === 0 ? {} : { ':expected': expectedVersion },
      },
    );
    return answer !== 'refused';
  }
}
