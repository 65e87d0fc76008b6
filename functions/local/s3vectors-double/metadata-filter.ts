/**
 * S3 Vectors' metadata filter language, as the double checks and evaluates it (AWS's "Metadata
 * filtering" page): `{key: value}` is `$eq`; per key `$eq $ne` (string, number, boolean), `$gt $gte $lt
 * $lte` (number), `$in $nin` (non-empty array of primitives), `$exists` (boolean); `$and $or` (non-empty
 * arrays of filters). On a list value, `$eq` and `$in` hold when any element matches. Filtering on a key
 * the index declared non-filterable is a ValidationException, as on AWS.
 */
import { invalid } from './errors';

type Primitive = string | number | boolean;
type MetadataValue = Primitive | Primitive[];
export type Metadata = Record<string, MetadataValue>;

/** A checked filter, ready to evaluate. */
export type Predicate = (metadata: Metadata | undefined) => boolean;

const isPrimitive = (value: unknown): value is Primitive => ['string', 'number', 'boolean'].includes(typeof value);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Checks `filter` and compiles it; `nonFilterable` keys may not be used. */
export function compileFilter(filter: unknown, nonFilterable: ReadonlySet<string>, path = 'filter'): Predicate {
  if (!isObject(filter) || Object.keys(filter).length === 0) throw invalid(path, 'must be a non-empty object');
  const parts = Object.entries(filter).map(([key, value]) => compileEntry(key, value, nonFilterable, `${path}.${key}`));
  return (metadata) => parts.every((part) => part(metadata));
}

function compileEntry(key: string, value: unknown, nonFilterable: ReadonlySet<string>, path: string): Predicate {
  if (key === '$and' || key === '$or') {
    if (!Array.isArray(value) || value.length === 0) throw invalid(path, 'must be a non-empty array of filters');
    const parts = value.map((item, i) => compileFilter(item, nonFilterable, `${path}[${i}]`));
    return key === '$and' ? (m) => parts.every((p) => p(m)) : (m) => parts.some((p) => p(m));
  }
  if (key.startsWith('$')) throw invalid(path, `unknown operator ${key}`);
  if (nonFilterable.has(key)) throw invalid(path, `${key} is a non-filterable metadata key`);
  if (isPrimitive(value)) return compileOperator(key, '$eq', value, path);
  if (!isObject(value) || Object.keys(value).length !== 1) throw invalid(path, 'must be a value or an object of one operator');
  const [operator, operand] = Object.entries(value)[0] as [string, unknown];
  return compileOperator(key, operator, operand, `${path}.${operator}`);
}

function compileOperator(key: string, operator: string, operand: unknown, path: string): Predicate {
  const values = (m: Metadata | undefined): Primitive[] | undefined => {
    const value = m?.[key];
    return value === undefined ? undefined : Array.isArray(value) ? value : [value];
  };
  switch (operator) {
    case '$eq':
    case '$ne': {
      if (!isPrimitive(operand)) throw invalid(path, 'must be a string, number or boolean');
      const equal = (m: Metadata | undefined) => values(m)?.some((v) => v === operand) ?? false;
      return operator === '$eq' ? equal : (m) => values(m) !== undefined && !equal(m);
    }
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      if (typeof operand !== 'number' || !Number.isFinite(operand)) throw invalid(path, 'must be a number');
      const holds = comparison(operator, operand);
      return (m) => values(m)?.some((v) => typeof v === 'number' && holds(v)) ?? false;
    }
    case '$in':
    case '$nin': {
      if (!Array.isArray(operand) || operand.length === 0 || !operand.every(isPrimitive))
        throw invalid(path, 'must be a non-empty array of primitives');
      const set = new Set<Primitive>(operand);
      const any = (m: Metadata | undefined) => values(m)?.some((v) => set.has(v)) ?? false;
      return operator === '$in' ? any : (m) => values(m) !== undefined && !any(m);
    }
    case '$exists':
      if (typeof operand !== 'boolean') throw invalid(path, 'must be a boolean');
      return (m) => (m?.[key] !== undefined) === operand;
    default:
      throw invalid(path, `unknown operator ${operator}`);
  }
}

function comparison(operator: '$gt' | '$gte' | '$lt' | '$lte', operand: number): (value: number) => boolean {
  if (operator === '$gt') return (v) => v > operand;
  if (operator === '$gte') return (v) => v >= operand;
  if (operator === '$lt') return (v) => v < operand;
  return (v) => v <= operand;
}
