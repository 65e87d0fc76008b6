/**
 * OpenAPI 3.0 helpers for the fuzz test: read the operations of a document, check values against the
 * JSON-schema subset zod's `toJSONSchema(..., { target: 'openapi-3.0' })` emits, and build fast-check
 * arbitraries of valid-ish and deliberately broken values from those schemas.
 *
 * Nothing here knows the kmem routes: everything is derived from the document.
 */
import { fc } from './property-seed';

export type Schema = Record<string, any>;

// ---------------------------------------------------------------------------------------------------
// The document
// ---------------------------------------------------------------------------------------------------

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: Schema;
}

interface DeclaredResponse {
  description: string;
  schema?: Schema;
}

export interface Operation {
  /** `GET /users/get/{id}` */
  label: string;
  method: string;
  path: string;
  tag: string;
  authenticated: boolean;
  pathParams: Parameter[];
  queryParams: Parameter[];
  body?: { required: boolean; contentTypes: string[]; schema?: Schema };
  responses: Record<string, DeclaredResponse>;
  /** The path template as a regular expression over a request's (normalised) path. */
  pattern: RegExp;
  paramNames: string[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

function resolveRef(root: Schema, ref: string): Schema {
  if (!ref.startsWith('#/')) throw new Error(`unsupported $ref ${ref}`);
  let node: any = root;
  for (const part of ref.slice(2).split('/')) {
    node = node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  if (node === undefined) throw new Error(`unresolvable $ref ${ref}`);
  return node as Schema;
}

/** Follows `$ref`s until a concrete schema. */
export function deref(root: Schema, schema: Schema | undefined): Schema {
  let current: Schema = schema ?? {};
  for (let i = 0; i < 32 && typeof current.$ref === 'string'; i += 1) current = resolveRef(root, current.$ref);
  return current;
}

function templatePattern(path: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const source = trimmed
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (!param?.[1]) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(param[1]);
      return '([^/]+)';
    })
    .join('/');
  return { pattern: new RegExp(`^${source}$`), names };
}

export function operationsOf(doc: Schema): Operation[] {
  const operations: Operation[] = [];
  const globalSecurity = (doc.security as unknown[] | undefined) ?? [];
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Schema>)) {
    const shared = ((item.parameters as Schema[] | undefined) ?? []).map((p) => deref(doc, p));
    for (const method of METHODS) {
      const op = item[method] as Schema | undefined;
      if (!op) continue;
      const own = ((op.parameters as Schema[] | undefined) ?? []).map((p) => deref(doc, p));
      const byKey = new Map<string, Schema>();
      for (const p of [...shared, ...own]) byKey.set(`${p.in}:${p.name}`, p);
      const params: Parameter[] = [...byKey.values()].map((p) => ({
        name: String(p.name),
        in: p.in,
        required: p.in === 'path' || p.required === true,
        schema: deref(doc, p.schema),
      }));
      const requestBody = op.requestBody ? deref(doc, op.requestBody) : undefined;
      const content = (requestBody?.content ?? {}) as Record<string, Schema>;
      const contentTypes = Object.keys(content);
      const firstType = contentTypes.find((t) => t.includes('json')) ?? contentTypes[0];
      const responses: Record<string, DeclaredResponse> = {};
      for (const [status, raw] of Object.entries((op.responses ?? {}) as Record<string, Schema>)) {
        const response = deref(doc, raw);
        const media = (response.content ?? {}) as Record<string, Schema>;
        const json = media['application/json'] ?? Object.values(media)[0];
        responses[status] = { description: String(response.description ?? ''), schema: json?.schema };
      }
      const security = (op.security as unknown[] | undefined) ?? globalSecurity;
      const { pattern, names } = templatePattern(path);
      operations.push({
        label: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        tag: String((op.tags as string[] | undefined)?.[0] ?? path.split('/')[1] ?? ''),
        authenticated: security.length > 0,
        pathParams: params.filter((p) => p.in === 'path'),
        queryParams: params.filter((p) => p.in === 'query'),
        body: requestBody
          ? {
              required: requestBody.required === true,
              contentTypes,
              schema: firstType ? content[firstType]?.schema : undefined,
            }
          : undefined,
        responses,
        pattern,
        paramNames: names,
      });
    }
  }
  return operations;
}

// ---------------------------------------------------------------------------------------------------
// A JSON-schema checker for the OpenAPI 3.0 subset zod emits
// ---------------------------------------------------------------------------------------------------

const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const regexCache = new Map<string, RegExp>();
function patternRegex(pattern: string): RegExp {
  let regex = regexCache.get(pattern);
  if (!regex) {
    try {
      regex = new RegExp(pattern);
    } catch {
      regex = new RegExp(pattern, 'u');
    }
    regexCache.set(pattern, regex);
  }
  return regex;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => deepEqual((a as any)[k], (b as any)[k]));
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function isType(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

const codePoints = (s: string): number => [...s].length;

/** Every way `value` breaks `schema`, as `$.path: problem` lines (empty when it conforms). */
export function checkSchema(root: Schema, schema: Schema | undefined, value: unknown, at = '$'): string[] {
  const errors: string[] = [];
  check(root, schema, value, at, errors);
  return errors;
}

function check(root: Schema, raw: Schema | undefined, value: unknown, at: string, errors: string[]): void {
  if (raw === undefined || raw === null || typeof raw !== 'object') return;
  const s = deref(root, raw);
  if (value === null && s.nullable === true) return;
  if (Array.isArray(s.allOf)) for (const part of s.allOf as Schema[]) check(root, part, value, at, errors);
  if (Array.isArray(s.anyOf) && !(s.anyOf as Schema[]).some((p) => checkSchema(root, p, value, at).length === 0)) {
    errors.push(`${at}: matches none of anyOf (${(s.anyOf as Schema[]).map((p) => checkSchema(root, p, value, at)[0]).join(' | ')})`);
  }
  if (Array.isArray(s.oneOf)) {
    const matching = (s.oneOf as Schema[]).filter((p) => checkSchema(root, p, value, at).length === 0).length;
    if (matching !== 1) errors.push(`${at}: matches ${matching} of oneOf, expected exactly 1`);
  }
  if (s.not && checkSchema(root, s.not, value, at).length === 0) errors.push(`${at}: matches a 'not' schema`);
  if ('const' in s && !deepEqual(value, s.const)) errors.push(`${at}: expected const ${JSON.stringify(s.const)}`);
  if (Array.isArray(s.enum) && !s.enum.some((e: unknown) => deepEqual(e, value))) {
    errors.push(`${at}: ${JSON.stringify(value)?.slice(0, 80)} is not one of ${JSON.stringify(s.enum)}`);
  }
  if (s.type !== undefined) {
    const types: string[] = Array.isArray(s.type) ? s.type : [s.type];
    if (!types.some((t) => isType(value, t))) {
      errors.push(`${at}: expected ${types.join('|')}${s.nullable ? ' (nullable)' : ''}, got ${typeOf(value)}`);
      return;
    }
  }
  if (typeof value === 'string') {
    const length = codePoints(value);
    if (typeof s.minLength === 'number' && length < s.minLength) errors.push(`${at}: shorter than ${s.minLength}`);
    if (typeof s.maxLength === 'number' && length > s.maxLength) errors.push(`${at}: longer than ${s.maxLength}`);
    if (typeof s.pattern === 'string' && !patternRegex(s.pattern).test(value)) {
      errors.push(`${at}: ${JSON.stringify(value.slice(0, 80))} does not match /${s.pattern.slice(0, 60)}/`);
    }
    if (s.format === 'date-time' && (!DATE_TIME.test(value) || Number.isNaN(Date.parse(value)))) {
      errors.push(`${at}: ${JSON.stringify(value.slice(0, 80))} is not a date-time`);
    }
    if (s.format === 'email' && !EMAIL.test(value)) errors.push(`${at}: ${JSON.stringify(value.slice(0, 80))} is not an email`);
    if (s.format === 'uuid' && !UUID.test(value)) errors.push(`${at}: ${JSON.stringify(value.slice(0, 80))} is not a uuid`);
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value)) errors.push(`${at}: not a finite number`);
    if (typeof s.minimum === 'number' && (s.exclusiveMinimum === true ? value <= s.minimum : value < s.minimum)) {
      errors.push(`${at}: ${value} is below the minimum ${s.minimum}`);
    }
    if (typeof s.maximum === 'number' && (s.exclusiveMaximum === true ? value >= s.maximum : value > s.maximum)) {
      errors.push(`${at}: ${value} is above the maximum ${s.maximum}`);
    }
    if (typeof s.exclusiveMinimum === 'number' && value <= s.exclusiveMinimum) errors.push(`${at}: ${value} <= ${s.exclusiveMinimum}`);
    if (typeof s.exclusiveMaximum === 'number' && value >= s.exclusiveMaximum) errors.push(`${at}: ${value} >= ${s.exclusiveMaximum}`);
    if (typeof s.multipleOf === 'number' && Math.abs(value / s.multipleOf - Math.round(value / s.multipleOf)) > 1e-9) {
      errors.push(`${at}: ${value} is not a multiple of ${s.multipleOf}`);
    }
  } else if (Array.isArray(value)) {
    if (typeof s.minItems === 'number' && value.length < s.minItems) errors.push(`${at}: fewer than ${s.minItems} items`);
    if (typeof s.maxItems === 'number' && value.length > s.maxItems) errors.push(`${at}: more than ${s.maxItems} items`);
    if (s.uniqueItems === true && value.some((v, i) => value.findIndex((w) => deepEqual(v, w)) !== i)) {
      errors.push(`${at}: items are not unique`);
    }
    value.forEach((item, i) => {
      const itemSchema = Array.isArray(s.items) ? (s.items[i] ?? s.additionalItems) : s.items;
      if (itemSchema && typeof itemSchema === 'object') check(root, itemSchema, item, `${at}[${i}]`, errors);
      else if (itemSchema === false) errors.push(`${at}[${i}]: no item allowed here`);
    });
  } else if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    const properties = (s.properties ?? {}) as Record<string, Schema>;
    for (const name of (s.required ?? []) as string[]) {
      if (!(name in object)) errors.push(`${at}: required property '${name}' is missing`);
    }
    const keys = Object.keys(object);
    if (typeof s.minProperties === 'number' && keys.length < s.minProperties) errors.push(`${at}: too few properties`);
    if (typeof s.maxProperties === 'number' && keys.length > s.maxProperties) errors.push(`${at}: too many properties`);
    for (const key of keys) {
      const where = `${at}.${key}`;
      if (key in properties) check(root, properties[key], object[key], where, errors);
      else if (s.additionalProperties === false) errors.push(`${where}: property is not allowed`);
      else if (s.additionalProperties && typeof s.additionalProperties === 'object') {
        check(root, s.additionalProperties, object[key], where, errors);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Values that come from the running service: ids of created resources and page tokens
// ---------------------------------------------------------------------------------------------------

/** A value to pick at request time from what earlier requests returned; `fallback` when none yet. */
export class PoolRef {
  constructor(
    /** A tag (group) whose ids to pick from, `*` for any, `#token` for page tokens. */
    readonly group: string,
    readonly pick: number,
    readonly fallback: string,
  ) {}

  [fc.toStringMethod](): string {
    return `pool(${this.group}#${this.pick} else ${JSON.stringify(this.fallback)})`;
  }
}

export const TOKEN_POOL = '#token';

export class Pools {
  private readonly ids = new Map<string, string[]>();
  private readonly known = new Set<string>();

  add(group: string, value: string): void {
    const key = `${group}\u0000${value}`;
    if (this.known.has(key)) return;
    this.known.add(key);
    const list = this.ids.get(group) ?? [];
    list.push(value);
    if (list.length > 500) list.splice(0, list.length - 500);
    this.ids.set(group, list);
  }

  has(group: string, value: string): boolean {
    return this.known.has(`${group}\u0000${value}`);
  }

  resolve(ref: PoolRef): string {
    const list =
      ref.group === '*' ? [...this.ids.entries()].filter(([g]) => g !== TOKEN_POOL).flatMap(([, v]) => v) : (this.ids.get(ref.group) ?? []);
    if (list.length === 0) return ref.fallback;
    // Lean towards recent values: they are likelier to still exist.
    return list[list.length - 1 - (ref.pick % Math.min(list.length, 50))] as string;
  }

  size(group?: string): number {
    return group ? (this.ids.get(group)?.length ?? 0) : [...this.ids.values()].reduce((n, l) => n + l.length, 0);
  }
}

/** Replaces every PoolRef inside a JSON-ish value by its resolved string. */
export function resolvePoolRefs(value: unknown, pools: Pools): unknown {
  if (value instanceof PoolRef) return pools.resolve(value);
  if (Array.isArray(value)) return value.map((v) => resolvePoolRefs(v, pools));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolvePoolRefs(v, pools)]));
  }
  return value;
}

/**
 * The group an id-like field refers to: `id` → the operation's own group, `sessionID` → `sessions`,
 * `userId` → `users`; `*` (any group) when the name is id-like but matches no group; undefined otherwise.
 */
export function groupOfField(name: string, ownTag: string, tags: readonly string[]): string | undefined {
  if (/^id$/i.test(name)) return ownTag;
  const m = /^(.+?)_?id$/i.exec(name);
  if (!m?.[1] || !/[a-z]I[Dd]$|_id$/.test(name)) return undefined;
  const base = m[1].toLowerCase();
  return tags.find((t) => [base, `${base}s`, `${base}es`].includes(t.toLowerCase())) ?? '*';
}

export const isTokenName = (name: string): boolean => /token|cursor/i.test(name);

// ---------------------------------------------------------------------------------------------------
// Arbitraries from schemas
// ---------------------------------------------------------------------------------------------------

export interface GenContext {
  root: Schema;
  /** The operation's own tag, for `id` fields. */
  tag: string;
  tags: readonly string[];
  /** Whether id-like fields may pick ids from the pools. */
  usePools: boolean;
}

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const alnumString = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...ALNUM.split('')), minLength: min, maxLength: Math.max(min, max) });

const two = (n: number) => String(n).padStart(2, '0');

/** Date-times: ordinary ones, ones built from edge years and offsets, and ones from the schema's pattern. */
function dateTimeArb(pattern?: string): fc.Arbitrary<string> {
  const ordinary = fc
    .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
    .map((d) => d.toISOString());
  const edge = fc
    .record({
      year: fc.constantFrom('0000', '0001', '0099', '1899', '1969', '1970', '2000', '2038', '9999'),
      month: fc.constantFrom(1, 2, 12),
      day: fc.constantFrom(1, 28, 31),
      hour: fc.constantFrom(0, 12, 23),
      minute: fc.constantFrom(0, 30, 59),
      second: fc.constantFrom(0, 59),
      fraction: fc.constantFrom('', '.5', '.123', '.123456789'),
      offset: fc.constantFrom('Z', '+00:00', '-00:00', '+01:00', '-01:00', '+14:00', '-12:00', '+05:30', '+23:59', '-23:59'),
    })
    .filter((p) => !(p.day === 31 && p.month === 2))
    .map((p) => `${p.year}-${two(p.month)}-${two(p.day)}T${two(p.hour)}:${two(p.minute)}:${two(p.second)}${p.fraction}${p.offset}`);
  const fromPattern = pattern ? safeStringMatching(pattern) : undefined;
  // Instants at the ends of the four-digit-year range, written with offsets that carry them across it.
  const extreme = fc.constantFrom(
    '0000-01-01T00:00:00Z',
    '0000-01-01T00:00:00+00:01',
    '0000-01-01T00:30:00+01:00',
    '9999-12-31T23:59:59.999Z',
    '9999-12-31T23:59:59-00:01',
    '9999-12-31T23:00:00-02:00',
  );
  return fc.oneof(
    { weight: 3, arbitrary: ordinary },
    { weight: 2, arbitrary: edge },
    { weight: 1, arbitrary: extreme },
    ...(fromPattern ? [{ weight: 2, arbitrary: fromPattern }] : []),
  );
}

function safeStringMatching(pattern: string): fc.Arbitrary<string> | undefined {
  try {
    const arb = fc.stringMatching(patternRegex(pattern));
    fc.sample(arb, { numRuns: 1, seed: 1 });
    return arb;
  } catch {
    return undefined;
  }
}

function lengthOk(s: Schema) {
  return (v: string): boolean =>
    (typeof s.minLength !== 'number' || codePoints(v) >= s.minLength) && (typeof s.maxLength !== 'number' || codePoints(v) <= s.maxLength);
}

function stringArb(s: Schema): fc.Arbitrary<string> {
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = Math.max(min, Math.min(typeof s.maxLength === 'number' ? s.maxLength : 40, 40));
  if (s.format === 'date-time') return dateTimeArb(s.pattern).filter(lengthOk(s));
  if (s.format === 'uuid') return fc.uuid();
  if (typeof s.pattern === 'string' && /^\^(\\d|\[0-9\])[+*]\$$/.test(s.pattern)) {
    // Digit strings (a `limit` parsed by the service): mostly small numbers, where the ranges usually are.
    return fc.oneof(
      { weight: 4, arbitrary: fc.nat(120).map(String) },
      { weight: 1, arbitrary: fc.stringMatching(patternRegex(s.pattern)) },
    );
  }
  if (typeof s.pattern === 'string') {
    const matching = safeStringMatching(s.pattern);
    if (matching) return matching.filter(lengthOk(s));
  }
  if (s.format === 'email') {
    return fc
      .tuple(alnumString(1, 12), alnumString(1, 12), fc.constantFrom('com', 'org', 'io', 'example'))
      .map(([local, domain, tld]) => `${local}@${domain}.${tld}`);
  }
  return fc.oneof(
    { weight: 4, arbitrary: alnumString(min, max) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: min, maxLength: max }).filter(lengthOk(s)) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: min, maxLength: max }).filter(lengthOk(s)) },
  );
}

function numberArb(s: Schema, integer: boolean): fc.Arbitrary<number> {
  let min = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum : -1_000_000;
  let max = typeof s.maximum === 'number' ? s.maximum : typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum : 1_000_000;
  const exclusiveMin = s.exclusiveMinimum === true || typeof s.exclusiveMinimum === 'number';
  const exclusiveMax = s.exclusiveMaximum === true || typeof s.exclusiveMaximum === 'number';
  if (integer) {
    min = Math.max(Math.ceil(exclusiveMin ? min + 1 : min), Number.MIN_SAFE_INTEGER);
    max = Math.min(Math.floor(exclusiveMax ? max - 1 : max), Number.MAX_SAFE_INTEGER);
    return fc.integer({ min, max: Math.max(min, max) });
  }
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true, minExcluded: exclusiveMin, maxExcluded: exclusiveMax });
}

/** Values that conform to the schema (as far as a JSON schema can say: zod may still trim or refine). */
export function validArb(ctx: GenContext, raw: Schema | undefined, name = '', depth = 0): fc.Arbitrary<unknown> {
  const s = deref(ctx.root, raw);
  const inner = validArbInner(ctx, s, name, depth);
  return s.nullable === true ? fc.oneof({ weight: 9, arbitrary: inner }, { weight: 1, arbitrary: fc.constant(null) }) : inner;
}

function validArbInner(ctx: GenContext, s: Schema, name: string, depth: number): fc.Arbitrary<unknown> {
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum) && s.enum.length > 0) return fc.constantFrom(...(s.enum as unknown[]));
  if (Array.isArray(s.allOf) && s.allOf.length > 0) {
    const merged = (s.allOf as Schema[]).reduce<Schema>((acc, part) => mergeSchemas(acc, deref(ctx.root, part)), {
      ...s,
      allOf: undefined,
    });
    return validArb(ctx, merged, name, depth);
  }
  const options = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (Array.isArray(options) && options.length > 0) return fc.oneof(...options.map((o) => validArb(ctx, o, name, depth + 1)));
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string': {
      const base = stringArb(s);
      const group = ctx.usePools ? groupOfField(name, ctx.tag, ctx.tags) : undefined;
      if (group === undefined) return base;
      return fc.oneof(
        { weight: 2, arbitrary: base },
        { weight: 3, arbitrary: fc.tuple(fc.nat(1000), base).map(([pick, fallback]) => new PoolRef(group, pick, fallback)) },
      );
    }
    case 'integer':
      return numberArb(s, true);
    case 'number':
      return numberArb(s, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      if (depth > 4) return fc.constant([]);
      const minLength = typeof s.minItems === 'number' ? s.minItems : 0;
      const maxLength = Math.max(minLength, Math.min(typeof s.maxItems === 'number' ? s.maxItems : 4, 4));
      return fc.array(validArb(ctx, s.items ?? {}, name, depth + 1), { minLength, maxLength });
    }
    case 'object':
      return objectArb(ctx, s, depth);
    default:
      if (s.properties) return objectArb(ctx, s, depth);
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function mergeSchemas(a: Schema, b: Schema): Schema {
  return {
    ...a,
    ...b,
    properties: { ...(a.properties ?? {}), ...(b.properties ?? {}) },
    required: [...new Set([...(a.required ?? []), ...(b.required ?? [])])],
  };
}

function objectArb(ctx: GenContext, s: Schema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  if (depth > 4) return fc.constant({});
  const properties = (s.properties ?? {}) as Record<string, Schema>;
  const required = ((s.required ?? []) as string[]).filter((k) => k in properties);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, schema] of Object.entries(properties)) model[key] = validArb(ctx, schema, key, depth + 1);
  const extra = ((s.required ?? []) as string[]).filter((k) => !(k in properties));
  for (const key of extra) model[key] = fc.jsonValue({ maxDepth: 1 });
  const record = fc.record(model, { requiredKeys: [...required, ...extra] });
  const additional = s.additionalProperties;
  if (Object.keys(properties).length === 0 && additional !== false && additional !== undefined) {
    const valueArb = typeof additional === 'object' ? validArb(ctx, additional, '', depth + 1) : fc.jsonValue({ maxDepth: 1 });
    return fc.dictionary(fc.string({ maxLength: 12 }), valueArb, { maxKeys: 3 });
  }
  return record;
}

/** JSON values of a different type than the schema asks for. */
function wrongTypeArb(ctx: GenContext, raw: Schema | undefined): fc.Arbitrary<unknown> {
  const s = deref(ctx.root, raw);
  const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  const candidates: Array<[string, fc.Arbitrary<unknown>]> = [
    ['string', fc.string({ maxLength: 12 })],
    ['integer', fc.integer()],
    ['number', fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isInteger(n))],
    ['boolean', fc.boolean()],
    ['array', fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 })],
    ['object', fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 })],
    ['null', fc.constant(null)],
  ];
  const wrong = candidates
    .filter(([t]) => !types.includes(t) && !(t === 'integer' && types.includes('number')) && !(t === 'null' && s.nullable))
    .map(([, arb]) => arb);
  return wrong.length ? fc.oneof(...wrong) : fc.constant(Symbol.for('no wrong type') as unknown);
}

const BAD_DATE_TIMES = [
  '2024-13-01T00:00:00Z',
  '2024-02-30T00:00:00Z',
  '2023-02-29T12:00:00Z',
  '2024-01-01',
  '2024-01-01T00:00:00',
  '2024-01-01T24:00:00Z',
  '2024-01-01T00:00:60Z',
  '2024-01-01 00:00:00Z',
  '+010000-01-01T00:00:00Z',
  'yesterday',
  '',
];
const BAD_EMAILS = ['a', 'a@', '@b.co', 'a@b', 'a b@c.de', 'a@@b.co', 'a@b..co', '.a@b.co', 'ü@b.co'];
const JUNK_STRINGS = [
  '',
  ' ',
  '\t',
  '..',
  '.',
  '-a',
  'a/b',
  '%',
  '%zz',
  '\u0000',
  '😀',
  '\u202e',
  'a'.repeat(129),
  'null',
  'undefined',
  '<script>',
];

/** Values of the right JSON type that break one of the schema's constraints, or of a wrong type. */
export function invalidArb(ctx: GenContext, raw: Schema | undefined, maxUnbounded = 20_000): fc.Arbitrary<unknown> {
  const s = deref(ctx.root, raw);
  const options: fc.Arbitrary<unknown>[] = [];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (Array.isArray(s.enum)) {
    options.push(
      fc
        .oneof(
          fc.string({ maxLength: 12 }),
          fc.constantFrom(...(s.enum as unknown[]).map((e) => (typeof e === 'string' ? e.toUpperCase() : `${String(e)}x`)), '', ' '),
        )
        .filter((v) => !(s.enum as unknown[]).includes(v)),
    );
  } else if (type === 'string') {
    if (typeof s.maxLength === 'number') {
      options.push(fc.integer({ min: s.maxLength + 1, max: s.maxLength + 64 }).map((n) => 'x'.repeat(n)));
    } else {
      options.push(fc.integer({ min: Math.min(1_000, maxUnbounded), max: maxUnbounded }).map((n) => 'y'.repeat(n)));
    }
    if (typeof s.minLength === 'number' && s.minLength > 0) options.push(fc.constant('z'.repeat(s.minLength - 1)));
    if (typeof s.pattern === 'string') {
      const regex = patternRegex(s.pattern);
      options.push(fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom(...JUNK_STRINGS)).filter((v) => !regex.test(v)));
    }
    if (s.format === 'date-time') options.push(fc.constantFrom(...BAD_DATE_TIMES));
    if (s.format === 'email') options.push(fc.constantFrom(...BAD_EMAILS));
    if (s.format === 'uuid') options.push(fc.constantFrom('not-a-uuid', '00000000-0000-0000-0000-00000000000g'));
  } else if (type === 'integer' || type === 'number') {
    const edges: number[] = [];
    if (typeof s.minimum === 'number') edges.push(s.minimum - 1);
    if (typeof s.maximum === 'number') edges.push(s.maximum + 1);
    if (type === 'integer') edges.push(1.5, -0.5);
    edges.push(1e308, -1e308);
    options.push(fc.constantFrom(...edges));
  } else if (type === 'array') {
    if (typeof s.maxItems === 'number' && s.maxItems < 1_000) {
      const item = validArb({ ...ctx, usePools: false }, s.items ?? {}, '', 3);
      options.push(fc.array(item, { minLength: s.maxItems + 1, maxLength: s.maxItems + 2 }));
    }
    if (typeof s.minItems === 'number' && s.minItems > 0) options.push(fc.constant([]));
    if (s.items) options.push(invalidArb(ctx, s.items).map((bad) => [bad]));
  }
  options.push(wrongTypeArb(ctx, s));
  return fc.oneof(...options).filter((v) => v !== Symbol.for('no wrong type'));
}

/** A value of the schema with one defect somewhere: a broken field, a missing required one, a bad item. */
export function mutatedArb(ctx: GenContext, raw: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const s = deref(ctx.root, raw);
  const options: fc.Arbitrary<unknown>[] = [invalidArb(ctx, s)];
  const properties = (s.properties ?? {}) as Record<string, Schema>;
  if (depth < 3 && Object.keys(properties).length > 0) {
    const whole = validArb(ctx, s, '', depth) as fc.Arbitrary<Record<string, unknown>>;
    for (const key of (s.required ?? []) as string[]) {
      options.push(whole.map((o) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key))));
    }
    for (const [key, schema] of Object.entries(properties)) {
      options.push(fc.tuple(whole, mutatedArb(ctx, schema, depth + 1)).map(([o, bad]) => ({ ...o, [key]: bad })));
    }
  }
  const items = deref(ctx.root, s.items);
  if (depth < 3 && s.type === 'array' && s.items) {
    options.push(
      fc
        .tuple(fc.array(validArb(ctx, items, '', depth + 1), { maxLength: 2 }), mutatedArb(ctx, items, depth + 1), fc.nat(2))
        .map(([list, bad, at]) => {
          const copy = [...list];
          copy.splice(at % (copy.length + 1), 0, bad);
          return copy;
        }),
    );
  }
  return fc.oneof(...options);
}

/** A valid object with properties the schema does not name. */
export function withUnknownPropertiesArb(ctx: GenContext, raw: Schema | undefined): fc.Arbitrary<unknown> {
  return fc
    .tuple(
      validArb(ctx, raw),
      fc.dictionary(
        fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('__proto__', 'constructor', 'status', 'accountId', 'owner')),
        fc.jsonValue({ maxDepth: 1 }),
        {
          minKeys: 1,
          maxKeys: 3,
        },
      ),
    )
    .map(([value, extra]) => (value && typeof value === 'object' && !Array.isArray(value) ? { ...value, ...extra } : value));
}
