/**
 * The key that seals page tokens, kept in the table itself so every container of the stack (and the
 * local runtime across restarts) shares it without another service. Created once, by whoever asks first.
 */
import { randomBytes } from 'node:crypto';
import { ConflictError } from '../../core/errors';
import { CursorSealer } from './cursor';
import { keys } from './keys';
import type { Item, Table } from './table';

const NAME = 'CURSORKEY';

export async function loadCursorSealer(table: Pick<Table, 'get' | 'create'>): Promise<CursorSealer> {
  const existing = await table.get(keys.system(NAME));
  if (existing) return sealerOf(existing);
  try {
    const secret = randomBytes(32).toString('base64');
    await table.create({ ...keys.system(NAME), secret, createdAt: new Date().toISOString() });
    return new CursorSealer(Buffer.from(secret, 'base64'));
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    const winner = await table.get(keys.system(NAME));
    if (!winner) throw error;
    return sealerOf(winner);
  }
}

function sealerOf(item: Item): CursorSealer {
  return new CursorSealer(Buffer.from(String(item.secret), 'base64'));
}
