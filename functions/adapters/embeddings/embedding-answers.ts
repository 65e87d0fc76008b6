/** What the remote embedders share: reading a service's vectors, batching texts, and their one error. */
import { InternalError } from '../../core/errors';
import { normalizeInPlace } from '../../engine';

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
export class EmbedderError extends InternalError {
  override readonly name: string = 'EmbedderError';
}
