/**
 * The key that seals page tokens, kept in the table itself so every container of the stack (and the
 * local runtime across restarts) shares it without another service. Created once, by whoever asks first.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { ConflictError } from '../../core/errors';
import { CursorSealer } from './cursor';
import { itemOf, itemSchema, storedTimestamp } from './item-schema';
import { keys } from './keys';
import type { Item, Table } from './table';

const NAME = 'CURSORKEY';

/** The sealing key, base64 (32 bytes). */
const sealingKeyItem = itemSchema<{ secret: string; createdAt: string }>(
  'cursorKey',
  z.object({
    secret: z.base64().refine((secret) => Buffer.from(secret, 'base64').length === 32, 'is not 32 bytes'),
    createdAt: storedTimestamp,
  }),
);

export async function loadCursorSealer(table: Pick<Table, 'get' | 'create'>): Promise<CursorSealer> {
  const existing = await table.get(keys.system(NAME));
  if (existing) return sealerOf(existing);
  try {
    const secret = randomBytes(32).toString('base64');
    await table.create(itemOf(sealingKeyItem, keys.system(NAME), { secret, createdAt: new Date().toISOString() }));
    return new CursorSealer(Buffer.from(secret, 'base64'));
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    const winner = await table.get(keys.system(NAME));
    if (!winner) throw error;
    return sealerOf(winner);
  }
}

function sealerOf(item: Item): CursorSealer {
  return new CursorSealer(Buffer.from(sealingKeyItem.read(item).secret, 'base64'));
}
