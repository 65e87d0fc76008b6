/**
 * A Map that, once `track()` is called, remembers which keys were inserted (in insertion order) and which
 * keys it held at that moment were deleted (with the value they had). A graph's maps are these, so a
 * build can write what it changed (graph-delta.ts) in the order the map now iterates: the keys it held
 * and kept stay in place, the keys inserted since (re-inserted ones too) follow in order.
 */
export class TrackedMap<K, V> extends Map<K, V> {
  private tracking = false;
  private readonly insertedKeys = new Set<K>();
  private readonly deletedEntries = new Map<K, V>();

  /** Forgets what was tracked and starts again from the map as it is now. */
  track(): void {
    this.tracking = true;
    this.insertedKeys.clear();
    this.deletedEntries.clear();
  }

  /** Keys inserted since `track()` and still present, in the order the map iterates them. */
  get inserted(): ReadonlySet<K> {
    return this.insertedKeys;
  }

  /** Keys the map held at `track()` and deleted since (some inserted again), with the value they had. */
  get deleted(): ReadonlyMap<K, V> {
    return this.deletedEntries;
  }

  override set(key: K, value: V): this {
    if (this.tracking && !super.has(key)) this.insertedKeys.add(key);
    return super.set(key, value);
  }

  override delete(key: K): boolean {
    if (!this.tracking || !super.has(key)) return super.delete(key);
    if (this.insertedKeys.has(key)) this.insertedKeys.delete(key);
    else if (!this.deletedEntries.has(key)) this.deletedEntries.set(key, super.get(key) as V);
    return super.delete(key);
  }

  override clear(): void {
    for (const key of [...this.keys()]) this.delete(key);
  }
}
