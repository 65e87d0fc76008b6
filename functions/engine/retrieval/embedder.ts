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
  const length = vector.length;
  let norm = 0;
  for (let index = 0; index < length; index++) norm += (vector[index] as number) * (vector[index] as number);
  if (norm === 0) return vector;
  const inverse = 1 / Math.sqrt(norm);
  for (let index = 0; index < length; index++) vector[index] = (vector[index] as number) * inverse;
  return vector;
}
