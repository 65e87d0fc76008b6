/**
 * Values kept per owner object (a loaded index, keyed by its retrieval index object, one per index
 * version, so they go with it; or a store), a few per owner by string key, the least recently used
 * dropped first.
 */
export class PerIndexLru<T> {
  private readonly byIndex = new WeakMap<object, Map<string, T>>();

  constructor(private readonly perIndex: number) {}

  /** The value kept for `key` under `index` (now the most recently used), or undefined. */
  get(index: object, key: string): { value: T } | undefined {
    const entries = this.byIndex.get(index);
    if (!entries?.has(key)) return undefined;
    const value = entries.get(key) as T;
    entries.delete(key); // moved to the end: most recently used
    entries.set(key, value);
    return { value };
  }

  delete(index: object, key: string): void {
    this.byIndex.get(index)?.delete(key);
  }

  set(index: object, key: string, value: T): void {
    let entries = this.byIndex.get(index);
    if (!entries) {
      entries = new Map();
      this.byIndex.set(index, entries);
    }
    entries.delete(key);
    entries.set(key, value);
    for (const oldest of entries.keys()) {
      if (entries.size <= this.perIndex) break;
      entries.delete(oldest);
    }
  }
}
