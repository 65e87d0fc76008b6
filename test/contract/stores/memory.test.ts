/** The store contracts on the in-memory stores (fast tier: no store server), and what only the memory bucket does. */
import { describe, expect, it, vi } from 'vitest';
import { memoryStores } from '../../../functions/adapters/memory/container';
import { MemoryObjectStore } from '../../../functions/adapters/memory/object-store';
import { BadRequestError } from '../../../functions/core/errors';
import { storeContracts } from './contracts';

describe('in-memory stores', () => {
  storeContracts(
    () => memoryStores(),
    async () => undefined,
  );

  it('reads and writes through its own presigned addresses: the signed method, size and lifetime only', async () => {
    const bucket = new MemoryObjectStore('b1');
    const put = await bucket.presignPut('up/a.txt', 'text/plain', 5, 60);
    await expect(bucket.openPresigned(put, 'PUT', new TextEncoder().encode('toolong'))).rejects.toBeInstanceOf(BadRequestError);
    await expect(bucket.openPresigned(put, 'GET')).rejects.toBeInstanceOf(BadRequestError);
    await expect(new MemoryObjectStore('b2').openPresigned(put, 'PUT', new TextEncoder().encode('hello'))).rejects.toBeInstanceOf(
      BadRequestError,
    );
    await bucket.openPresigned(put, 'PUT', new TextEncoder().encode('hello'));
    expect(await bucket.head('up/a.txt')).toEqual({ size: 5, contentType: 'text/plain' });
    const get = await bucket.presignGet('up/a.txt', 1);
    expect(new TextDecoder().decode(await bucket.openPresigned(get, 'GET'))).toBe('hello');
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 2_000);
      await expect(bucket.openPresigned(get, 'GET')).rejects.toThrow(/expired/);
    } finally {
      vi.useRealTimers();
    }
  });
});
