/**
 * The storage seam: one zod schema per kind of item says what a record of that kind looks like in the
 * table. Reads parse every item through it, so an item that is not what its kind must be (written by a
 * bug, or by hand) is a StoredItemError naming the item and the field, never a silently wrong object.
 * Writes compose the item from the same schema (keys come from keys.ts), so nothing is written that would
 * not read back.
 *
 * Stored attribute names are the storage's business: where the domain's name differs from what earlier
 * versions wrote (`sessionId` is stored as `sessionID`), `stored` maps it, both ways, so items already in
 * the table read unchanged and conditions and filters keep naming the stored attribute.
 */
import { z } from 'zod';
import { StoredItemError } from '../../core/errors';
import type { IndexName, TableKey } from './keys';
import type { Item } from './table';

export interface ItemSchema<T> {
  /** The `kind` attribute items of this schema carry. */
  readonly kind: string;
  /** The record an item holds; a StoredItemError when the item is not one. */
  read(item: Item): T;
  /** The attributes that store `record` (with `kind`), to be written beside its keys. */
  write(record: T): Item;
  /** Stored attribute names for changed fields of a record (an update's SET). */
  changes(changes: Partial<T>): Item;
  /** The stored attribute name of a field (for conditions and filters). */
  attribute(field: keyof T & string): string;
}

export interface ItemSchemaOptions<T> {
  /** Domain field -> stored attribute, where they differ. */
  stored?: Partial<Record<keyof T & string, string>>;
  /**
   * For a schema that reshapes what it reads (`.transform`): the stored form of a record, which the schema
   * must read back. Without it, a record is stored as the schema parses it.
   */
  encode?: (record: T) => Item;
}

export function itemSchema<T>(kind: string, schema: z.ZodType<T>, options: ItemSchemaOptions<T> = {}): ItemSchema<T> {
  const toStored = new Map<string, string>(Object.entries(options.stored ?? {}) as Array<[string, string]>);
  const toDomain = new Map<string, string>([...toStored].map(([field, attribute]) => [attribute, field]));
  const rename = (values: Item, names: Map<string, string>): Item =>
    names.size === 0 ? values : Object.fromEntries(Object.entries(values).map(([name, value]) => [names.get(name) ?? name, value]));
  /** The domain fields of an item: an attribute that bears the name of a field stored elsewhere is not it (an edge's `kind`). */
  const fieldsOf = (item: Item): Item =>
    toStored.size === 0 ? item : rename(Object.fromEntries(Object.entries(item).filter(([name]) => !toStored.has(name))), toDomain);

  return {
    kind,
    read(item) {
      const parsed = schema.safeParse(fieldsOf(item));
      if (!parsed.success) throw new StoredItemError(`${kind} item ${describeKey(item)} is malformed: ${problems(parsed.error, toStored)}`);
      return parsed.data;
    },
    write(record) {
      const stored = options.encode?.(record);
      const parsed = schema.safeParse(stored ?? record);
      if (!parsed.success) throw new StoredItemError(`refused to write a malformed ${kind}: ${problems(parsed.error, new Map())}`);
      return { ...rename(stored ?? (parsed.data as Item), toStored), kind };
    },
    changes: (changes) => rename(changes as Item, toStored),
    attribute: (field) => toStored.get(field) ?? field,
  };
}

/** Reads every item with `schema`. */
export function readAll<T>(schema: ItemSchema<T>, items: readonly Item[]): T[] {
  return items.map((item) => schema.read(item));
}

/** The index keys an item may carry (gsi1pk, gsi1sk, ...). */
type IndexAttributes = Partial<Record<`${IndexName}${'pk' | 'sk'}`, string>>;

/** The whole item of a record: its keys (and index keys), then its attributes. */
export function itemOf<T>(schema: ItemSchema<T>, key: TableKey & IndexAttributes, record: T): Item & TableKey {
  return { ...key, ...schema.write(record) };
}

function describeKey(item: Item): string {
  return typeof item.pk === 'string' ? `${item.pk} / ${String(item.sk)}` : '(no key)';
}

function problems(error: z.ZodError, toStored: ReadonlyMap<string, string>): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const [head, ...rest] = issue.path.map(String);
      const path = [head === undefined ? undefined : (toStored.get(head) ?? head), ...rest].filter((part) => part !== undefined).join('.');
      return `${path || '(item)'}: ${issue.message}`;
    })
    .join('; ');
}

// ---- fields as stored ------------------------------------------------------------------------------

/** A field older versions may not have written (or wrote as null): null then. */
export const nullable = <S extends z.ZodType>(schema: S) => schema.nullish().transform((value) => value ?? null);

/** A count older versions may not have written: 0 then. */
export const count = z.number().default(0);

/** An ISO timestamp as written by the service (the API's `timestamp` schema is stricter: functions/http/common-schemas.ts). */
export const storedTimestamp = z.string().min(1);

/** A DynamoDB string set (absent when empty: an empty set cannot be stored) as a list. */
export const stringSet = z.preprocess((value) => (value instanceof Set ? [...value] : (value ?? [])), z.array(z.string()));
