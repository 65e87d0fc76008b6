/** A small cache of promises for the stored-index readers (index-cache.ts, graph-segments.ts). */

/** Promises kept by key, least recently used dropped past `capacity`; a failed read is forgotten. */
export class PromiseLru<T> {
  private readonly entries = new Map<string, Promise<T>>();

  constructor(private readonly capacity: number) {}

  /** The entry under `key`, if any, without reading or reordering. */
  peek(key: string): Promise<T> | undefined {
    return this.entries.get(key);
  }

  /** Keeps `value` under `key` as the most recently used. */
  set(key: string, value: T): void {
    this.entries.delete(key);
    this.get(key, () => Promise.resolve(value));
  }

  /** The entry under `key` (now the most recently used), else what `read` answers, kept under `key`. */
  get(key: string, read: () => Promise<T>): Promise<T> {
    let entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key); // most recently used last
      this.entries.set(key, entry);
      return entry;
    }
    entry = read();
    entry.catch(() => this.entries.delete(key));
    this.entries.set(key, entry);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    return entry;
  }
}
