/**
 * The embedder port: turns texts into fixed-length vectors for semantic retrieval. Adapters:
 * `WordVectorEmbedder` (offline default, word vectors from an installed package),
 * `OpenAiCompatibleEmbedder` (POST {baseUrl}/embeddings) and `BedrockEmbedder` (Titan text embeddings).
 *
 * Retrieval compares vectors by dot product, so every adapter returns unit-length vectors.
 */

/** Turns texts into unit-length vectors of `dimensions` values. */
export interface Embedder {
  /** Stable name of the model and its pooling, recorded with a segment (the memory's adapterRepo). */
  readonly name: string;
  readonly dimensions: number;
  /** One vector per text, in order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/** Scales `vector` to unit length in place (an all-zero vector stays zero) and returns it. */
export function normalizeInPlace(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const value of vector) norm += value * value;
  if (norm === 0) return vector;
  const inverse = 1 / Math.sqrt(norm);
  for (let index = 0; index < vector.length; index++) vector[index] = (vector[index] ?? 0) * inverse;
  return vector;
}

/** Converts a parsed JSON number array into a unit-length Float32Array of `dimensions` values. */
export function toUnitVector(values: unknown, dimensions: number, source: string): Float32Array {
  if (!Array.isArray(values) || !values.every((value) => typeof value === 'number' && Number.isFinite(value))) {
    throw new EmbedderError(`${source}: embedding is not an array of numbers`);
  }
  if (values.length !== dimensions) {
    throw new EmbedderError(`${source}: embedding has ${values.length} dimensions, expected ${dimensions}`);
  }
  return normalizeInPlace(Float32Array.from(values as number[]));
}

/** Splits `items` into batches of at most `size`. */
export function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

/** An embedding call failed (transport, status or malformed answer). */
export class EmbedderError extends Error {
  override readonly name = 'EmbedderError';
}
