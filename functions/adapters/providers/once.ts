/**
 * functions/adapters/providers: the one place that maps settings to providers, one file per kind (embedder,
 * graph extractor, answer model, extraction engines). Those that load a model or hold a client are made
 * on first use and kept: once per container.
 */

/** `make`, called on first use only. */
export function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
