/** Reading a request body's fields, each failure a ValidationException naming the field. */
import { invalid } from './errors';

export type Body = Record<string, unknown>;

export function text(body: Body, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalid(field, 'must be a string');
  return value;
}

export function requiredText(body: Body, field: string): string {
  const value = text(body, field);
  if (value === undefined || value === '') throw invalid(field, 'is required');
  return value;
}

export function integer(body: Body, field: string, min: number, max: number): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(field, `must be an integer from ${min} to ${max}`);
  }
  return value;
}

export function flag(body: Body, field: string): boolean {
  const value = body[field];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw invalid(field, 'must be a boolean');
  return value;
}

export function list(body: Body, field: string, max: number): unknown[] {
  const value = body[field];
  if (!Array.isArray(value) || value.length === 0) throw invalid(field, 'must be a non-empty list');
  if (value.length > max) throw invalid(field, `holds ${value.length} items; at most ${max} are allowed`);
  return value;
}

/** `{float32: [...]}` of exactly `dimension` finite numbers (a zero vector refused under cosine). */
export function vectorData(value: unknown, field: string, dimension: number, metric: 'cosine' | 'euclidean'): number[] {
  const data = typeof value === 'object' && value !== null ? (value as Body).float32 : undefined;
  if (!Array.isArray(data)) throw invalid(field, 'must be {float32: [numbers]}');
  if (data.length !== dimension) throw invalid(field, `has ${data.length} dimensions; the index has ${dimension}`);
  if (!data.every((v) => typeof v === 'number' && Number.isFinite(v)))
    throw invalid(field, 'must hold finite numbers only (no NaN or Infinity)');
  if (metric === 'cosine' && data.every((v) => v === 0)) throw invalid(field, 'a zero vector is not allowed under the cosine distance');
  return data as number[];
}

/** Base64 of an offset: the double's pagination tokens. */
export const tokenOf = (offset: number): string => Buffer.from(String(offset)).toString('base64');

export function offsetOf(body: Body): number {
  const token = text(body, 'nextToken');
  if (token === undefined) return 0;
  const offset = Number(Buffer.from(token, 'base64').toString());
  if (!Number.isInteger(offset) || offset < 0) throw invalid('nextToken', 'is not a token this service gave');
  return offset;
}
