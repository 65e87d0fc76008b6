/**
 * The rule of a file's metadata (`POST /files/create`, `POST /files/import`): at most 32 `{key, value}`
 * pairs, a key 1-64 letters, digits, `_`, `.` or `-`, a value 1-256 characters. The API checks requests
 * against it (functions/http/common-schemas.ts builds its schema from these bounds); an S3 object's user
 * metadata is taken under the same rule here, entries that break it left out.
 */
import type { MetadataEntry } from '../model';

export const FILE_METADATA = {
  maxPairs: 32,
  keyPattern: /^[A-Za-z0-9_.-]{1,64}$/,
  keyRule: 'must be 1-64 letters, digits, underscores, dots or dashes',
  maxValueChars: 256,
} as const;

function fitsRule(entry: MetadataEntry): boolean {
  return FILE_METADATA.keyPattern.test(entry.key) && entry.value.length >= 1 && entry.value.length <= FILE_METADATA.maxValueChars;
}

/** An S3 object's user metadata (`x-amz-meta-*`, names without the prefix) as entries, those that break the rule left out. */
export function objectMetadataEntries(userMetadata: Readonly<Record<string, string>>): MetadataEntry[] {
  return Object.entries(userMetadata)
    .map(([key, value]) => ({ key, value }))
    .filter(fitsRule);
}

/** `base` with `added` on top (an added key replaces the base's entries of that key), at most maxPairs pairs. */
export function withMetadata(base: readonly MetadataEntry[], added: readonly MetadataEntry[]): MetadataEntry[] {
  const addedKeys = new Set(added.map((entry) => entry.key));
  return [...base.filter((entry) => !addedKeys.has(entry.key)), ...added].slice(0, FILE_METADATA.maxPairs);
}

/** The same pairs in the same order. */
export function sameMetadata(a: readonly MetadataEntry[], b: readonly MetadataEntry[]): boolean {
  return a.length === b.length && a.every((entry, i) => entry.key === b[i]?.key && entry.value === b[i]?.value);
}
