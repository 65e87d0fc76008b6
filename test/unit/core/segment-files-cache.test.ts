/**
 * A segment's source table is read from the store once per container and kept (a segment never changes
 * under its name); a failed read is not kept, and another store's segment of the same name is its own.
 */
import { describe, expect, it } from 'vitest';
import { MemoryObjectStore } from '../../../functions/adapters/memory/object-store';
import type { ObjectStore } from '../../../functions/core/ports';
import { INDEX_FILES } from '../../../functions/core/stored-index/index-files';
import { cachedSegmentFiles } from '../../../functions/core/stored-index/segments';

function counted(store: ObjectStore): { objects: ObjectStore; gets: () => number } {
  let gets = 0;
  const objects: ObjectStore = Object.assign(Object.create(store) as ObjectStore, {
    get: (key: string) => {
      gets++;
      return store.get(key);
    },
  });
  return { objects, gets: () => gets };
}

const PREFIX = 'gold/a/memories/m/index/s1-0000/';

describe('segment source tables kept per container', () => {
  it('reads a table once, then answers it from memory', async () => {
    const store = counted(new MemoryObjectStore());
    await store.objects.put(PREFIX + INDEX_FILES.files, JSON.stringify({ f1: [0, 3], f2: [3, 4] }), 'application/json');
    const first = await cachedSegmentFiles(store.objects, PREFIX);
    expect([...first]).toEqual([
      ['f1', [0, 3]],
      ['f2', [3, 4]],
    ]);
    expect(await cachedSegmentFiles(store.objects, PREFIX)).toBe(first);
    expect(store.gets()).toBe(1);
  });

  it('does not keep a failed read, and keeps each store apart', async () => {
    const store = counted(new MemoryObjectStore());
    await expect(cachedSegmentFiles(store.objects, PREFIX)).rejects.toThrow(/is gone/);
    await store.objects.put(PREFIX + INDEX_FILES.files, JSON.stringify({ f3: [0, 1] }), 'application/json');
    expect([...(await cachedSegmentFiles(store.objects, PREFIX)).keys()]).toEqual(['f3']);
    const other = new MemoryObjectStore();
    await other.put(PREFIX + INDEX_FILES.files, JSON.stringify({ f4: [0, 2] }), 'application/json');
    expect([...(await cachedSegmentFiles(other, PREFIX)).keys()]).toEqual(['f4']);
  });
});
