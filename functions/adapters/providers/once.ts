/**
 * functions/adapters/providers: the one place that maps settings to providers, one file and one
 * `xxxFromSettings(settings, context)` per kind (embedder, graph extractor, answer generator, OCR and
 * speech engines). The settings are the unions functions/config/providers.ts reads from the environment;
 * the context is what the providers share. Those that load a model or hold a client are made on first use
 * and kept, once per container, by wrapping the call in `once`.
 */

/** What every provider may need beside its own settings: the AWS region its SDK clients are made for. */
export interface ProviderContext {
  readonly region: string;
  /** Whether the offline word vectors may use their binary cache on disk (default: yes). */
  readonly wordVectorCache?: boolean;
}

/** `make`, called on first use only. */
export function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
