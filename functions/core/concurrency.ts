/**
 * The one bounded-concurrency map: use cases (store calls), adapters (batch writes, embedding calls,
 * graph-extraction requests) all run their parallel work through `mapConcurrently`. Pure TypeScript
 * with no I/O, so every layer that may import core may use it.
 */

/** Store calls one use case keeps in flight at once (a memory may hold thousands of files). */
export const STORE_CONCURRENCY = 16;

/**
 * Runs `task` over `items` with at most `limit` in flight (at least one); the results keep the items'
 * order. The first failure rejects the whole map; tasks already started run to their end.
 */
export async function mapConcurrently<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const run = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, run));
  return results;
}

/**
 * Waits for every one of `writes` to settle, then rejects with the first failure, if any. The objects of
 * one folder are written so: a writer that fails has nothing still in flight when it (or the publish
 * that collects its folder) deletes what it wrote, so no object lands after the delete.
 */
export async function settleAll(writes: readonly Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(writes)).find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}
