/**
 * Heavy modules (AWS SDK clients a stage may never call, parsers a worker may never need) load on first
 * use through `loadOnce`, so a worker starts without them; the first caller waits for the load.
 */

/** `load`, called at the first call and kept; a failed load is forgotten, so the next call tries again. */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
}
