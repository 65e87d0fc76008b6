/**
 * What a vector carries in S3 Vectors: kmem's filter attributes as filterable metadata, within the
 * store's limits (2 KB of filterable metadata and 50 keys a vector; AWS's "Limitations and restrictions"
 * page). Short names keep the bytes for what varies:
 *
 *   k  the vector's key (lets a widening query leave out what it has seen: `{k: {$nin: [...]}}`)
 *   f  file (or session) id     t  file type     s  session     u  user     r  role
 *   c  createdAt, epoch ms (numbers compare with $gte / $lt)
 *   p  the source key's prefixes that end at a `/` or `:`, shortest first, then the whole key
 *   m_<key>  a metadata pair (`.` in the key written `~`, so no store reads it as a path)
 *   xp / xm  true when prefixes / metadata pairs were left out for the size limit (queries then post-filter)
 *
 * Sizes are counted as the JSON text's UTF-8 bytes, kept under a margin below 2 KB since AWS does not
 * publish its exact accounting.
 */
import { InternalError } from '../../core/errors';
import type { VectorAttributes } from '../../core/vector-tier/ports';

/** Filterable metadata a vector may carry, in JSON bytes (AWS: 2 KB; the rest is margin). */
export const FILTERABLE_BYTES = 1_900;
/** Metadata keys a vector may carry (AWS: 50). */
const METADATA_KEYS = 50;

/** A metadata document as S3 Vectors stores it. */
export type StoredMetadata = Record<string, string | number | boolean | string[]>;

const bytesOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** The metadata key of a metadata pair. */
export const metadataKey = (key: string): string => `m_${key.replaceAll('.', '~')}`;
const pairKey = (stored: string): string => stored.slice(2).replaceAll('~', '.');

/** The prefixes of `sourceKey` that end at a `/` or `:`, shortest first, then the key itself. */
export function sourcePrefixes(sourceKey: string): string[] {
  const prefixes: string[] = [];
  for (let i = 0; i < sourceKey.length - 1; i++) if (sourceKey[i] === '/' || sourceKey[i] === ':') prefixes.push(sourceKey.slice(0, i + 1));
  return [...prefixes, sourceKey];
}

/** The metadata of one vector: the attributes that fit, and flags for what did not. */
export function storedMetadataOf(key: string, attributes: VectorAttributes): StoredMetadata {
  const stored: StoredMetadata = { k: key, f: attributes.fileId };
  const optional: [string, string | number | undefined][] = [
    ['t', attributes.fileType],
    ['s', attributes.sessionId],
    ['u', attributes.userId],
    ['r', attributes.role],
    ['c', attributes.createdAt],
  ];
  for (const [name, value] of optional) if (value !== undefined) stored[name] = value;
  if (bytesOf(stored) > FILTERABLE_BYTES) {
    throw new InternalError(`vector ${key.slice(0, 64)}: its ids alone exceed the ${FILTERABLE_BYTES} bytes of filterable metadata`);
  }
  if (attributes.sourceKey !== undefined) addPrefixes(stored, sourcePrefixes(attributes.sourceKey));
  addPairs(stored, attributes.metadata ?? {});
  return stored;
}

function addPrefixes(stored: StoredMetadata, prefixes: string[]): void {
  const kept: string[] = [];
  for (const prefix of prefixes) {
    if (bytesOf({ ...stored, p: [...kept, prefix], xp: true }) > FILTERABLE_BYTES) break;
    kept.push(prefix);
  }
  if (kept.length) stored.p = kept;
  if (kept.length < prefixes.length) stored.xp = true;
}

function addPairs(stored: StoredMetadata, metadata: Readonly<Record<string, string>>): void {
  const pairs = Object.entries(metadata).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  let dropped = false;
  for (const [key, value] of pairs) {
    const candidate = { ...stored, [metadataKey(key)]: value, xm: true };
    if (Object.keys(candidate).length > METADATA_KEYS || bytesOf(candidate) > FILTERABLE_BYTES) {
      dropped = true;
      continue;
    }
    stored[metadataKey(key)] = value;
  }
  if (dropped) stored.xm = true;
}

/** The attributes a stored vector still carries, and whether some were left out. */
export function attributesOf(stored: Readonly<Record<string, unknown>>): { attributes: VectorAttributes; partial: boolean } {
  const text = (name: string): string | undefined => (typeof stored[name] === 'string' ? (stored[name] as string) : undefined);
  const prefixes = Array.isArray(stored.p) ? (stored.p as string[]) : [];
  const metadata: Record<string, string> = {};
  for (const [name, value] of Object.entries(stored))
    if (name.startsWith('m_') && typeof value === 'string') metadata[pairKey(name)] = value;
  const attributes: VectorAttributes = {
    fileId: text('f') ?? '',
    fileType: text('t'),
    sessionId: text('s'),
    userId: text('u'),
    role: text('r'),
    createdAt: typeof stored.c === 'number' ? stored.c : undefined,
    sourceKey: stored.xp === true ? undefined : prefixes.at(-1),
    metadata,
  };
  return { attributes, partial: stored.xp === true || stored.xm === true };
}
