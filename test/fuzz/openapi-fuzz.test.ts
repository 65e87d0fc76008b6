/**
 * Property-based fuzzing of every operation of the published OpenAPI document, over real HTTP against the
 * local runtime. Requests are derived from the document alone (routes added later are covered without
 * touching this file): valid-ish inputs from the parameter and body schemas, mixed with broken ones
 * (missing/wrong fields, bad enums, out-of-range values, malformed JSON, invalid UTF-8, oversized bodies,
 * junk path segments, forged page tokens) and with missing or bad API keys.
 *
 * Every answer must be: below 500, JSON, a status the operation declares (401/403 always allowed on
 * authenticated ones), shaped like the schema declared for that status, and free of stack traces.
 * A few semantics hold too: no key → 401, bad key → 403, body over KMEM_MAX_BODY_KB → 413, a resource
 * created a moment ago can be read with its id by its owner and not by another account.
 *
 * The seed is fixed unless FUZZ_SEED=random; replay a failure with FUZZ_SEED=<seed printed at the start>.
 * The run has a fixed budget of requests, FUZZ_BUDGET (default 3,000), shared evenly by the operations (at
 * least MIN_RUNS each), so the file's time does not grow with the API: every operation is fuzzed, each
 * with fewer runs as operations are added. FUZZ_RUNS sets the runs per operation instead (FUZZ_RUNS=250 is
 * the deeper run the suite made before the budget).
 */
import { fc, PROPERTY_SEED } from '../support/property-seed';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  type GenContext,
  type Operation,
  type Parameter,
  type Schema,
  PoolRef,
  Pools,
  TOKEN_POOL,
  checkSchema,
  deref,
  groupOfField,
  invalidArb,
  isTokenName,
  mutatedArb,
  operationsOf,
  resolvePoolRefs,
  validArb,
  withUnknownPropertiesArb,
} from '../support/openapi-arbitraries';

// accounts of its own: ids harvested from list answers are replayed in deletes (global-setup.ts)
const { url: BASE, keyFuzzA: keyA, keyFuzzB: keyB } = inject('kmem');

/** The test runtime's KMEM_MAX_BODY_KB (see test/support/global-setup.ts). */
const MAX_BODY_BYTES = 256 * 1024;
/** Uploads (multipart operations) take files up to KMEM_MAX_UPLOAD_MB (default 50) plus the form's framing. */
const MAX_UPLOAD_BYTES = 50 * 1024 * 1024 + 64 * 1024;
/** Fixed by default, so CI (and a rerun) sends the same requests: see test/support/property-seed.ts. */
const SEED = PROPERTY_SEED;
/** Requests of the whole run (beside the seeding creates), shared by the operations. */
const BUDGET = Number(process.env.FUZZ_BUDGET ?? 3_000);
/** Runs each operation gets at least, whatever the budget: every arm of the case generator drawn a few times. */
const MIN_RUNS = 60;

const documentAnswer = await fetch(`${BASE}/openapi.json`);
const doc = (await documentAnswer.json()) as Schema;
const operations = operationsOf(doc);
const RUNS = Number(process.env.FUZZ_RUNS ?? Math.max(MIN_RUNS, Math.ceil(BUDGET / Math.max(1, operations.length))));
const tags = [...new Set(operations.map((op) => op.tag))];

/** Ids and tokens seen in answers, per account. */
const pools = { A: new Pools(), B: new Pools() };

// ---------------------------------------------------------------------------------------------------
// Generated cases
// ---------------------------------------------------------------------------------------------------

type KeyChoice = { kind: 'A' } | { kind: 'B' } | { kind: 'none' } | { kind: 'bad'; value: string };

type PathValue =
  /** Percent-encoded into the path. */
  | { kind: 'value'; value: string | PoolRef }
  /** Put into the path as is: percent-junk, dot segments, backslashes. */
  | { kind: 'raw'; value: string }
  /** The id of the resource the case's setup request created. */
  | { kind: 'fresh'; fallback: string };

type Body =
  | { kind: 'none' }
  | { kind: 'json'; note: string; value: unknown }
  | { kind: 'text'; note: string; text: string }
  | { kind: 'bytes'; note: string; bytes: Uint8Array }
  /** A JSON object padded to exactly `size` bytes. */
  | { kind: 'huge'; note: string; size: number; value: unknown };

interface CaseFields {
  key: KeyChoice;
  params: Record<string, PathValue>;
  query: Array<[string, string | PoolRef]>;
  rawQuery: string;
  /** undefined: the default for the body; null: no content-type header. */
  contentType: string | null | undefined;
  /** Headers the operation does not ask for. */
  extraHeaders: Array<[string, string]>;
  body: Body;
  /** A valid body for the group's create operation, sent first when a path parameter is `fresh`. */
  setup: unknown;
}

const shorten = (value: unknown): unknown => {
  if (typeof value === 'string') return value.length > 160 ? `${value.slice(0, 80)}…(${value.length} chars)` : value;
  if (value instanceof Uint8Array) return `bytes(${value.length}):${Buffer.from(value.subarray(0, 48)).toString('hex')}`;
  if (value instanceof PoolRef) return value;
  if (Array.isArray(value))
    return value.length > 20 ? [...value.slice(0, 20).map(shorten), `…(${value.length} items)`] : value.map(shorten);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shorten(v)]));
  return value;
};

/** A generated request; prints compactly in fast-check's counterexamples. */
class FuzzCase implements CaseFields {
  key!: KeyChoice;
  params!: Record<string, PathValue>;
  query!: Array<[string, string | PoolRef]>;
  rawQuery!: string;
  contentType!: string | null | undefined;
  extraHeaders!: Array<[string, string]>;
  body!: Body;
  setup: unknown;

  constructor(
    readonly op: Operation,
    fields: CaseFields,
  ) {
    Object.assign(this, fields);
  }

  usesFresh(): boolean {
    return Object.values(this.params).some((p) => p.kind === 'fresh');
  }

  [fc.toStringMethod](): string {
    const key = this.key.kind === 'bad' ? `bad(${JSON.stringify(this.key.value)})` : this.key.kind;
    const shown: Record<string, unknown> = {
      request: `${this.op.method} ${this.op.path}`,
      key,
      params: this.params,
      query: this.query,
      ...(this.rawQuery ? { rawQuery: this.rawQuery } : {}),
      ...(this.contentType !== undefined ? { contentType: this.contentType } : {}),
      ...(this.extraHeaders.length ? { extraHeaders: this.extraHeaders } : {}),
      body: this.body,
      ...(this.usesFresh() ? { setup: this.setup } : {}),
    };
    return fc.stringify(shorten(shown));
  }
}

const badKeyArb = fc.oneof(
  fc.constantFrom('', 'null', 'kmem_', 'Bearer x', `${keyA}x`, keyA.slice(0, -1), keyA.toUpperCase(), `${keyA},${keyB}`),
  fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 80 }),
  fc.stringMatching(/^kmem_[A-Za-z0-9_-]{43}$/),
  fc.string({ unit: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 20 }),
);

/** Header values fetch accepts: no controls, no surrounding whitespace; never one of the real keys. */
const keyArb: fc.Arbitrary<KeyChoice> = fc.oneof(
  { weight: 16, arbitrary: fc.constant<KeyChoice>({ kind: 'A' }) },
  { weight: 1, arbitrary: fc.constant<KeyChoice>({ kind: 'B' }) },
  { weight: 1, arbitrary: fc.constant<KeyChoice>({ kind: 'none' }) },
  {
    weight: 2,
    arbitrary: badKeyArb
      .map((v) => v.replace(/[\u0000-\u001f\u007f]/g, '').trim())
      .filter((v) => v !== keyA && v !== keyB)
      .map((value): KeyChoice => ({ kind: 'bad', value })),
  },
);

const RAW_SEGMENTS = [
  '%',
  '%zz',
  '%E0%A4%A',
  '%C3%28',
  '%00',
  '%2F',
  '%2f..',
  '%2e%2e',
  '..',
  '.',
  '%FF%FE',
  'a%20b',
  '%25',
  ';',
  '~',
  "'",
  'a+b',
  '%uD800',
  '%ED%A0%80',
  '\\',
  '..\\list',
  '..%2F..%2Fopenapi.json',
  '%0A',
  '%0D%0Aset-cookie:x',
  '*',
  '$',
  '@',
  ':',
  'a:b',
  '%3A%3A',
  'CON',
  '-',
  '_',
];
const NUMERIC_JUNK = ['0', '101', '-1', 'abc', '1.5', '1e2', '', ' 5', '0x10', '99999999999999999999', '١٢', 'NaN', '+5', '05'];
const RAW_QUERIES = ['limit=%ZZ', '%', '&&&', '=x', 'limit', 'limit=1&limit=abc', '%E0%A4%A=1', 'nextToken=%00', 'a[b]=c', 'limit[]=1'];

/**
 * Longest junk put in a URL: API Gateway refuses URLs over 8 KB itself, and the local runtime (Node's
 * 16 KB header limit) answers 431 without a body, so longer URLs test the transport, not the API.
 */
const URL_LONG = 2_000;

/** Header names that are plain tokens to HTTP but special to JavaScript objects, and some ordinary ones. */
const HEADER_NAMES = [
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__proto__',
  'accept',
  'x-forwarded-for',
  'x-amzn-trace-id',
  'content-encoding',
  'x-api-key-2',
  'origin',
];

const extraHeadersArb: fc.Arbitrary<Array<[string, string]>> = fc.oneof(
  { weight: 12, arbitrary: fc.constant<Array<[string, string]>>([]) },
  {
    weight: 1,
    arbitrary: fc.uniqueArray(
      fc.tuple(
        fc.oneof(
          fc.constantFrom(...HEADER_NAMES),
          fc.stringMatching(/^x-[a-z0-9-]{1,16}$/).filter((n) => n !== 'x-api-key'),
        ),
        fc
          .oneof(fc.constantFrom('gzip', '*/*', '1.2.3.4', 'x'), fc.string({ unit: 'binary-ascii', maxLength: 20 }))
          .map((v) => v.replace(/[\u0000-\u001f\u007f]/g, '').trim()),
      ),
      { minLength: 1, maxLength: 3, selector: ([name]) => name.toLowerCase() },
    ),
  },
);

const contextFor = (op: Operation, usePools = true): GenContext => ({ root: doc, tag: op.tag, tags, usePools });

function encodeSafe(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(/[\ud800-\udfff]/g, '\ufffd'));
  }
}

const asQueryString = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);

function pathValueArb(op: Operation, p: Parameter, fresh: boolean): fc.Arbitrary<PathValue> {
  const ctx = contextFor(op, false);
  const group = groupOfField(p.name, op.tag, tags) ?? op.tag;
  const value = (arb: fc.Arbitrary<unknown>) => arb.map((v): PathValue => ({ kind: 'value', value: asQueryString(v) }));
  const valid = validArb(ctx, p.schema, p.name).map(asQueryString);
  return fc.oneof(
    { weight: 4, arbitrary: value(valid) },
    {
      weight: 4,
      arbitrary: fc
        .tuple(fc.nat(1000), valid)
        .map(([pick, fallback]): PathValue => ({ kind: 'value', value: new PoolRef(group, pick, fallback) })),
    },
    ...(fresh ? [{ weight: 5, arbitrary: valid.map((fallback): PathValue => ({ kind: 'fresh', fallback })) }] : []),
    { weight: 2, arbitrary: value(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 })) },
    { weight: 1, arbitrary: value(fc.string({ unit: 'binary', minLength: 1, maxLength: 20 })) },
    { weight: 2, arbitrary: value(invalidArb(ctx, p.schema, URL_LONG)) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.constantFrom(...RAW_SEGMENTS),
          fc.string({ unit: fc.constantFrom(..."abc019%.-_~!$&'()*+,;=:@\\".split('')), minLength: 1, maxLength: 12 }),
        )
        .map((v): PathValue => ({ kind: 'raw', value: v })),
    },
  );
}

function tokenArb(): fc.Arbitrary<string | PoolRef> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.nat(1000).map((pick) => new PoolRef(TOKEN_POOL, pick, 'v1.nothing-yet')) },
    { weight: 2, arbitrary: fc.uint8Array({ minLength: 0, maxLength: 96 }).map((b) => `v1.${Buffer.from(b).toString('base64url')}`) },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('', 'v1.', 'v1', 'v2.AAAA', '.', 'v1.!!!!', 'null', 'x'.repeat(2049), `v1.${'A'.repeat(3000)}`),
    },
  );
}

function queryArb(op: Operation): fc.Arbitrary<{ query: Array<[string, string | PoolRef]>; rawQuery: string }> {
  const ctx = contextFor(op);
  const perParam = op.queryParams.map((p) =>
    fc
      .oneof(
        ...(p.required ? [] : [{ weight: isTokenName(p.name) ? 10 : 6, arbitrary: fc.constant(undefined) }]),
        {
          weight: isTokenName(p.name) ? 1 : 6,
          arbitrary: validArb(ctx, p.schema, p.name).map((v) => (v instanceof PoolRef ? v : asQueryString(v))),
        },
        { weight: 1, arbitrary: invalidArb(ctx, p.schema, URL_LONG).map(asQueryString) },
        { weight: 1, arbitrary: fc.constantFrom(...NUMERIC_JUNK) },
        ...(isTokenName(p.name) ? [{ weight: 5, arbitrary: tokenArb() }] : []),
      )
      .map((v): Array<[string, string | PoolRef]> => (v === undefined ? [] : [[p.name, v]])),
  );
  const extra = fc.oneof(
    { weight: 18, arbitrary: fc.constant<Array<[string, string]>>([]) },
    { weight: 1, arbitrary: fc.array(fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })), { minLength: 1, maxLength: 3 }) },
    ...(op.queryParams.length
      ? [
          {
            weight: 1,
            arbitrary: fc
              .tuple(fc.constantFrom(...op.queryParams.map((p) => p.name)), fc.constantFrom(...NUMERIC_JUNK))
              .map((pair) => [pair]),
          },
        ]
      : []),
  );
  const raw = fc.oneof({ weight: 19, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom(...RAW_QUERIES) });
  return fc.tuple(fc.tuple(...perParam), extra, raw).map(([declared, more, rawQuery]) => ({
    query: [...declared.flat(), ...more],
    rawQuery,
  }));
}

const INVALID_UTF8 = [[0xc3, 0x28], [0xff], [0xfe, 0xff], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf4, 0x90, 0x80, 0x80], [0x80], [0xe2, 0x82]];
const MALFORMED = [
  '{',
  '{{{{',
  '{"a":}',
  '{"a":1,}',
  "{'a':1}",
  'NaN',
  'undefined',
  '[1,2',
  '{"a":"\\x"}',
  '\u0000',
  '\ufeff{}',
  '1e999',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  'null',
  'true',
  '"a string"',
  '[]',
  '0',
  '-',
  ' ',
];

function jsonBodyArb(op: Operation, schema: Schema | undefined): fc.Arbitrary<Body> {
  const ctx = contextFor(op);
  const valid = validArb(ctx, schema);
  const json = (note: string, arb: fc.Arbitrary<unknown>) => arb.map((value): Body => ({ kind: 'json', note, value }));
  return fc.oneof(
    { weight: 30, arbitrary: json('valid', valid) },
    { weight: 25, arbitrary: json('one defect', mutatedArb(ctx, schema)) },
    { weight: 5, arbitrary: json('unknown properties', withUnknownPropertiesArb(ctx, schema)) },
    { weight: 5, arbitrary: json('random JSON', fc.jsonValue({ maxDepth: 3 })) },
    {
      weight: 7,
      arbitrary: fc
        .oneof(
          valid
            .map((v) => JSON.stringify(resolvePoolRefs(v, pools.A)) ?? '')
            .chain((t) => fc.nat(Math.max(0, t.length - 1)).map((k) => t.slice(0, k))),
          fc.constantFrom(...MALFORMED),
          fc.string({ unit: 'binary', maxLength: 50 }),
          fc.integer({ min: 1_000, max: 20_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
          fc.integer({ min: 1_000, max: 20_000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`),
        )
        .map((text): Body => ({ kind: 'text', note: 'malformed or odd JSON text', text })),
    },
    {
      weight: 5,
      arbitrary: fc.tuple(valid, fc.constantFrom(...INVALID_UTF8)).map(([v, bad]): Body => {
        const value = resolvePoolRefs(v, pools.A);
        const holder =
          value && typeof value === 'object' && !Array.isArray(value) ? { ...value, zz: '\u0001MARK\u0001' } : { zz: '\u0001MARK\u0001' };
        const [before, after] = JSON.stringify(holder).split('\\u0001MARK\\u0001');
        const bytes = Buffer.concat([Buffer.from(before ?? ''), Buffer.from(bad), Buffer.from(after ?? '')]);
        return { kind: 'bytes', note: 'invalid UTF-8', bytes: new Uint8Array(bytes) };
      }),
    },
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          fc.constantFrom(MAX_BODY_BYTES - 64, MAX_BODY_BYTES, MAX_BODY_BYTES + 1, MAX_BODY_BYTES + 1000, 300 * 1024, 1024 * 1024),
          valid,
        )
        .map(([size, value]): Body => ({ kind: 'huge', note: `padded to ${size} bytes`, size, value })),
    },
    {
      weight: 4,
      arbitrary: fc.constantFrom<Body>(
        { kind: 'none' },
        { kind: 'text', note: 'empty', text: '' },
        { kind: 'text', note: 'whitespace', text: ' \n' },
      ),
    },
  );
}

/** multipart/form-data operations (uploads) get forms with random files, random bytes, or junk. */
function multipartBodyArb(op: Operation, schema: Schema | undefined): fc.Arbitrary<{ body: Body; contentType: string }> {
  const s = deref(doc, schema);
  const fileFields = Object.entries((s.properties ?? {}) as Record<string, Schema>)
    .filter(([, p]) => deref(doc, p).format === 'binary')
    .map(([name]) => name);
  const otherFields = Object.entries((s.properties ?? {}) as Record<string, Schema>).filter(([name]) => !fileFields.includes(name));
  const ctx = contextFor(op);
  const form = fc
    .record({
      boundary: fc.stringMatching(/^[A-Za-z0-9]{8,30}$/),
      field: fc.constantFrom(...(fileFields.length ? fileFields : ['file']), 'other'),
      filename: fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('a.txt', 'a.pdf', '../../etc/passwd', 'x'.repeat(300), '')),
      type: fc.constantFrom('text/plain', 'application/pdf', 'application/octet-stream', 'text/markdown', 'image/png', ''),
      bytes: fc.oneof(
        fc.uint8Array({ maxLength: 2000 }),
        fc.string({ maxLength: 500 }).map((t) => new Uint8Array(Buffer.from(t))),
      ),
      others: fc.tuple(...otherFields.map(([name, p]) => fc.option(validArb(ctx, p, name).map((v) => [name, v] as const)))),
    })
    .map(({ boundary, field, filename, type, bytes, others }) => {
      const parts: Buffer[] = [];
      for (const entry of others) {
        if (!entry) continue;
        const v = resolvePoolRefs(entry[1], pools.A);
        parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${entry[0]}"\r\n\r\n${asQueryString(v)}\r\n`));
      }
      parts.push(
        Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${field}"; filename="${filename.replace(/["\r\n]/g, '')}"\r\n`),
        Buffer.from(type ? `content-type: ${type}\r\n\r\n` : '\r\n'),
        Buffer.from(bytes),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      );
      return {
        body: { kind: 'bytes', note: 'multipart form', bytes: new Uint8Array(Buffer.concat(parts)) } as Body,
        contentType: `multipart/form-data; boundary=${boundary}`,
      };
    });
  return fc.oneof(
    { weight: 6, arbitrary: form },
    {
      weight: 2,
      arbitrary: fc.uint8Array({ maxLength: 3000 }).map((bytes) => ({
        body: { kind: 'bytes', note: 'random bytes', bytes } as Body,
        contentType: 'multipart/form-data; boundary=fuzz',
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom<Body>({ kind: 'none' }, { kind: 'text', note: 'empty', text: '' })
        .map((body) => ({ body, contentType: 'multipart/form-data; boundary=fuzz' })),
    },
    { weight: 1, arbitrary: jsonBodyArb(op, undefined).map((body) => ({ body, contentType: 'application/json' })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(MAX_BODY_BYTES + 1, 2 * 1024 * 1024).map((size) => ({
        body: { kind: 'huge', note: `padded to ${size} bytes`, size, value: {} } as Body,
        contentType: 'multipart/form-data; boundary=fuzz',
      })),
    },
  );
}

/** Operations without a request body still get the odd body (not GET/HEAD, which fetch forbids). */
function strayBodyArb(op: Operation): fc.Arbitrary<Body> {
  if (op.method === 'GET' || op.method === 'HEAD') return fc.constant<Body>({ kind: 'none' });
  return fc.oneof(
    { weight: 40, arbitrary: fc.constant<Body>({ kind: 'none' }) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((value): Body => ({ kind: 'json', note: 'unexpected JSON', value })) },
    { weight: 1, arbitrary: fc.constantFrom(...MALFORMED).map((text): Body => ({ kind: 'text', note: 'unexpected text', text })) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...INVALID_UTF8)
        .map((b): Body => ({ kind: 'bytes', note: 'unexpected invalid UTF-8', bytes: new Uint8Array(b) })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(MAX_BODY_BYTES, MAX_BODY_BYTES + 1)
        .map((size): Body => ({ kind: 'huge', note: `unexpected body of ${size} bytes`, size, value: {} })),
    },
  );
}

function bodyAndTypeArb(op: Operation): fc.Arbitrary<{ body: Body; contentType: string | null | undefined }> {
  const types = op.body?.contentTypes ?? [];
  if (types.some((t) => t.startsWith('multipart/'))) return multipartBodyArb(op, op.body?.schema);
  const body = op.body ? jsonBodyArb(op, op.body.schema) : strayBodyArb(op);
  const contentType = fc.oneof(
    { weight: 12, arbitrary: fc.constant<string | null | undefined>(undefined) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<string | null>(
        null,
        'text/plain',
        'application/json; charset=latin1',
        'multipart/form-data',
        'application/x-www-form-urlencoded',
      ),
    },
  );
  return fc.record({ body, contentType });
}

/** The create operation of an operation's group: POST, no path parameters, JSON body, an id in its answer. */
function creatorOf(op: Operation): Operation | undefined {
  if (op.pathParams.length === 0) return undefined;
  return operations.find(
    (o) =>
      o.tag === op.tag &&
      o.method === 'POST' &&
      o.pathParams.length === 0 &&
      o.body?.schema !== undefined &&
      o.body.contentTypes.some((t) => t.includes('json')) &&
      idOf(o, undefined) !== undefined,
  );
}

/** Where the id of a created resource sits in an operation's 200 answer (or, given a body, the id itself). */
function idOf(op: Operation, body: unknown): string[] | string | undefined {
  const s = deref(doc, op.responses['200']?.schema);
  const props = (s.properties ?? {}) as Record<string, Schema>;
  const path = props.id ? ['id'] : deref(doc, props.data).properties?.id ? ['data', 'id'] : undefined;
  if (!path || body === undefined) return path;
  const id = path.reduce<any>((node, k) => node?.[k], body);
  return typeof id === 'string' ? id : undefined;
}

function caseArb(op: Operation): fc.Arbitrary<FuzzCase> {
  const creator = creatorOf(op);
  const params = fc.record(
    Object.fromEntries(
      op.pathParams.map((p) => [p.name, pathValueArb(op, p, creator !== undefined && groupOfField(p.name, op.tag, tags) === op.tag)]),
    ) as Record<string, fc.Arbitrary<PathValue>>,
  );
  const setup = creator ? validArb(contextFor(creator), creator.body?.schema) : fc.constant(undefined);
  return fc.record({ key: keyArb, params, q: queryArb(op), bt: bodyAndTypeArb(op), extraHeaders: extraHeadersArb, setup }).map(
    ({ key, params, q, bt, extraHeaders, setup }) =>
      new FuzzCase(op, {
        key,
        params,
        query: q.query,
        rawQuery: q.rawQuery,
        contentType: bt.contentType,
        extraHeaders,
        body: bt.body,
        setup,
      }),
  );
}

// ---------------------------------------------------------------------------------------------------
// Sending, and what every answer must satisfy
// ---------------------------------------------------------------------------------------------------

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array;
  bodyText: string;
  keyKind: KeyChoice['kind'];
  /** Resolved path parameter values, for the isolation and read-after-create checks. */
  ids: Record<string, { value: string; origin: 'pool' | 'fresh' | 'other' }>;
}

interface Received {
  status: number;
  contentType: string;
  text: string;
  json?: unknown;
}

function padded(value: unknown, size: number): Uint8Array {
  const base = value && typeof value === 'object' && !Array.isArray(value) ? value : {};
  const empty = Buffer.byteLength(JSON.stringify({ ...base, pad: '' }));
  return new Uint8Array(Buffer.from(JSON.stringify({ ...base, pad: 'p'.repeat(Math.max(0, size - empty)) })));
}

function materialize(c: FuzzCase, pool: Pools, freshId: string | undefined): Sent {
  const ids: Sent['ids'] = {};
  let path = c.op.path;
  for (const [name, pv] of Object.entries(c.params)) {
    let segment: string;
    if (pv.kind === 'raw') {
      segment = pv.value;
    } else if (pv.kind === 'fresh') {
      const value = freshId ?? pv.fallback;
      ids[name] = { value, origin: freshId ? 'fresh' : 'other' };
      segment = encodeSafe(value);
    } else {
      const value = pv.value instanceof PoolRef ? pool.resolve(pv.value) : pv.value;
      ids[name] = { value, origin: pv.value instanceof PoolRef ? 'pool' : 'other' };
      segment = encodeSafe(value);
    }
    path = path.replace(`{${name}}`, segment);
  }
  const search = new URLSearchParams();
  for (const [name, v] of c.query) search.append(name, v instanceof PoolRef ? pool.resolve(v) : v);
  const query = [search.toString(), c.rawQuery].filter(Boolean).join('&');
  const headers: Record<string, string> = Object.fromEntries(c.extraHeaders);
  if (c.key.kind === 'A') headers['X-API-Key'] = keyA;
  if (c.key.kind === 'B') headers['X-API-Key'] = keyB;
  if (c.key.kind === 'bad') headers['X-API-Key'] = c.key.value;
  let body: Uint8Array | undefined;
  const b = c.body;
  if (b.kind === 'json') body = new Uint8Array(Buffer.from(JSON.stringify(resolvePoolRefs(b.value, pool)) ?? 'null'));
  if (b.kind === 'text') body = new Uint8Array(Buffer.from(b.text));
  if (b.kind === 'bytes') body = b.bytes;
  if (b.kind === 'huge') body = padded(resolvePoolRefs(b.value, pool), b.size);
  if (body !== undefined && c.contentType !== null) headers['content-type'] = c.contentType ?? 'application/json';
  return {
    method: c.op.method,
    url: `${BASE}${path}${query ? `?${query}` : ''}`,
    headers,
    body,
    bodyText: body ? Buffer.from(body).toString('utf8') : '',
    keyKind: c.key.kind,
    ids,
  };
}

async function send(sent: Sent): Promise<Received> {
  const answer = await fetch(sent.url, {
    method: sent.method,
    headers: sent.headers,
    body: sent.body,
    redirect: 'manual',
    signal: AbortSignal.timeout(20_000),
  });
  const text = await answer.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: answer.status, contentType: answer.headers.get('content-type') ?? '', text, json };
}

const trimSlash = (path: string): string => (path.length > 1 ? path.replace(/\/+$/, '') : path);

/** Which operation the request reaches once the URL is normalised (dot segments, backslashes). */
function routeOf(sent: Sent): { op: Operation; badEncoding: boolean } | { status: 404 | 405 } {
  const path = trimSlash(new URL(sent.url).pathname);
  const matches = operations.filter((o) => o.pattern.test(path));
  const op = matches.find((o) => o.method === sent.method);
  if (!op) return { status: matches.length ? 405 : 404 };
  const groups = op.pattern.exec(path)?.slice(1) ?? [];
  const badEncoding = groups.some((g) => {
    try {
      decodeURIComponent(g);
      return false;
    } catch {
      return true;
    }
  });
  return { op, badEncoding };
}

const STACK_PATTERNS = [/at \S+ \(.*:\d+:\d+\)/g, /\.(?:ts|js|mjs|cjs):\d+/g];

/** Stack-trace-like text in an answer that is not merely an echo of the request. */
function stackLeaks(received: Received, sent: Sent): string[] {
  let requestText = `${sent.url}\n${sent.bodyText}\n${JSON.stringify(sent.headers)}`;
  try {
    requestText += `\n${decodeURIComponent(sent.url)}`;
  } catch {
    /* keep the raw URL */
  }
  const leaks: string[] = [];
  const strings: string[] = [];
  const walk = (node: unknown): void => {
    if (typeof node === 'string') strings.push(node);
    else if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) strings.push(k), walk(v);
  };
  walk(received.json ?? received.text);
  for (const s of strings) {
    for (const pattern of STACK_PATTERNS) {
      for (const m of s.matchAll(pattern)) if (!requestText.includes(m[0])) leaks.push(m[0]);
    }
  }
  return leaks;
}

const GENERIC_ERROR: Schema = {
  type: 'object',
  properties: { error: { type: 'string' }, status: { type: 'string' } },
  required: ['error', 'status'],
};
const AUTH_STATUS: Record<number, string> = { 401: 'unauthorized', 403: 'forbidden' };

/** The error schema an operation declares (the one of its first 4xx), for 401/403 it does not list. */
function errorSchemaOf(op: Operation): Schema {
  const status = Object.keys(op.responses).find((s) => s.startsWith('4'));
  return (status && op.responses[status]?.schema) || GENERIC_ERROR;
}

interface Verdict {
  problems: string[];
  /** The operation that actually answered (differs from the target when the path normalised elsewhere). */
  reached?: Operation;
}

function judge(sent: Sent, received: Received): Verdict {
  const problems: string[] = [];
  const { status } = received;
  if (status >= 500) problems.push(`status ${status} is a server error`);
  if (!/application\/json/i.test(received.contentType)) problems.push(`content-type is ${JSON.stringify(received.contentType)}, not JSON`);
  if (received.json === undefined) problems.push('the body is not JSON');
  const leaks = stackLeaks(received, sent);
  if (leaks.length) problems.push(`the body leaks stack-trace-like text: ${leaks.slice(0, 3).join(', ')}`);

  const route = routeOf(sent);
  if ('status' in route) {
    if (status !== route.status) problems.push(`path reaches no operation: expected router status ${route.status}, got ${status}`);
    problems.push(...checkSchema(doc, GENERIC_ERROR, received.json).map((e) => `body: ${e}`));
    return { problems };
  }
  const op = route.op;
  // When the path normalised onto another operation (dot segments), that one's contract applies.
  const declared = Object.keys(op.responses);
  const allowed = new Set(declared);
  if (op.authenticated) allowed.add('401'), allowed.add('403');
  if (!allowed.has(String(status)) && !allowed.has('default')) {
    problems.push(`status ${status} is not declared by ${op.label} (declared: ${[...allowed].join(', ')})`);
  }
  const response = op.responses[String(status)] ?? op.responses.default;
  const schema = response?.schema ?? (AUTH_STATUS[status] ? errorSchemaOf(op) : undefined);
  if (schema && received.json !== undefined) {
    problems.push(
      ...checkSchema(doc, schema, received.json)
        .slice(0, 8)
        .map((e) => `body does not match the ${status} schema: ${e}`),
    );
  }
  const word = response?.description.match(/\((\w+)\)$/)?.[1] ?? AUTH_STATUS[status];
  const body = received.json as Record<string, unknown> | undefined;
  if (status >= 400 && word && typeof body?.status === 'string' && body.status !== word) {
    problems.push(`error status field is ${JSON.stringify(body.status)}, the document says ${word}`);
  }

  // Semantics every operation shares.
  if (!route.badEncoding && op.authenticated) {
    const missing = sent.keyKind === 'none' || (sent.keyKind === 'bad' && !sent.headers['X-API-Key']);
    if (missing && status !== 401) problems.push(`no API key must answer 401, got ${status}`);
    if (sent.keyKind === 'bad' && !missing && status !== 403) problems.push(`an invalid API key must answer 403, got ${status}`);
  }
  if (!op.authenticated && (status === 401 || status === 403)) problems.push(`${op.label} needs no key but answered ${status}`);
  const bytes = sent.body?.length ?? 0;
  const validKey = sent.keyKind === 'A' || sent.keyKind === 'B';
  const limit = op.body?.contentTypes.some((t) => t.startsWith('multipart/')) ? MAX_UPLOAD_BYTES : MAX_BODY_BYTES;
  if (!route.badEncoding && (validKey || !op.authenticated) && bytes > limit && status !== 413) {
    problems.push(`a ${bytes}-byte body is over the ${limit}-byte limit: expected 413, got ${status}`);
  }
  if (bytes <= limit && status === 413) problems.push(`a ${bytes}-byte body is within the limit but answered 413`);
  return { problems, reached: op };
}

const shortText = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s);

function describeExchange(sent: Sent, received: Received | undefined, problems: string[]): string {
  const body = sent.body
    ? `${sent.body.length} bytes: ${JSON.stringify(sent.bodyText.length > 300 ? `${sent.bodyText.slice(0, 300)}…` : sent.bodyText)}`
    : '(none)';
  const headers = Object.fromEntries(Object.entries(sent.headers).map(([k, v]) => [k, v === keyA ? '<keyA>' : v === keyB ? '<keyB>' : v]));
  return [
    ...problems.map((p) => `✗ ${p}`),
    `request:  ${sent.method} ${shortText(sent.url.replace(BASE, ''), 400)}`,
    `headers:  ${JSON.stringify(headers)}`,
    `body:     ${body}`,
    received
      ? `response: ${received.status} ${received.contentType} ${received.text.length > 1500 ? `${received.text.slice(0, 1500)}…` : received.text}`
      : 'response: (none)',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------------
// Bookkeeping
// ---------------------------------------------------------------------------------------------------

const stats = new Map<string, { runs: number; statuses: Map<number, number> }>();
const overall = new Map<number, number>();

function record(label: string, status: number): void {
  const entry = stats.get(label) ?? { runs: 0, statuses: new Map<number, number>() };
  entry.runs += 1;
  entry.statuses.set(status, (entry.statuses.get(status) ?? 0) + 1);
  stats.set(label, entry);
  overall.set(status, (overall.get(status) ?? 0) + 1);
}

/** Remembers ids and page tokens from a successful answer, for later requests of that account. */
function harvest(op: Operation, keyKind: KeyChoice['kind'], received: Received): void {
  if (received.status !== 200 || (keyKind !== 'A' && keyKind !== 'B')) return;
  const pool = pools[keyKind];
  const body = received.json as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object') return;
  const remember = (item: unknown, ownTag: string) => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) return;
    for (const [name, v] of Object.entries(item)) {
      const group = groupOfField(name, ownTag, tags);
      if (typeof v === 'string' && v && group && group !== '*') pool.add(group, v);
    }
  };
  remember(body.data, op.tag);
  for (const [name, v] of Object.entries(body)) {
    if (Array.isArray(v)) v.forEach((item) => remember(item, op.tag));
    if (typeof v === 'string' && v && isTokenName(name)) pool.add(TOKEN_POOL, v);
  }
}

/** Sends one request, records it, and returns the problems with its answer. */
async function exchange(sent: Sent): Promise<{ received: Received; verdict: Verdict }> {
  let received: Received;
  try {
    received = await send(sent);
  } catch (error) {
    throw new Error(describeExchange(sent, undefined, [`the request failed: ${(error as Error).message}`]));
  }
  const verdict = judge(sent, received);
  record(verdict.reached?.label ?? `(unrouted ${sent.method})`, received.status);
  if (verdict.reached) harvest(verdict.reached, sent.keyKind, received);
  return { received, verdict };
}

/** Operations that refuse some freshly created resources by design (documented in the README). */
function refusesByDesign(op: Operation, setup: unknown): boolean {
  const memoryType = setup && typeof setup === 'object' ? (setup as { memoryType?: unknown }).memoryType : undefined;
  // A vector memory has no graph: GET /memories/graph/{id} answers 400 naming `id`.
  return op.label === 'GET /memories/graph/{id}' && memoryType !== 'graph';
}

async function runCase(c: FuzzCase): Promise<void> {
  const op = c.op;
  let freshId: string | undefined;
  const creator = creatorOf(op);
  if (creator && c.usesFresh()) {
    const setupSent: Sent = materialize(
      new FuzzCase(creator, {
        key: { kind: 'A' },
        params: {},
        query: [],
        rawQuery: '',
        contentType: undefined,
        extraHeaders: [],
        body: { kind: 'json', note: 'setup', value: c.setup },
        setup: undefined,
      }),
      pools.A,
      undefined,
    );
    const setup = await exchange(setupSent);
    if (setup.verdict.problems.length)
      throw new Error(`setup request:\n${describeExchange(setupSent, setup.received, setup.verdict.problems)}`);
    const id = setup.received.status === 200 ? idOf(creator, setup.received.json) : undefined;
    freshId = typeof id === 'string' ? id : undefined;
  }
  const sent = materialize(c, pools.A, freshId);
  const { received, verdict } = await exchange(sent);
  const problems = [...verdict.problems];
  if (verdict.reached === op) {
    const ownIds = Object.values(sent.ids);
    // Another account must never reach a resource of account A.
    if (sent.keyKind === 'B' && received.status === 200) {
      const foreign = ownIds.find((id) => id.origin !== 'other' && pools.A.has(op.tag, id.value) && !pools.B.has(op.tag, id.value));
      if (foreign) problems.push(`account B reached account A's ${op.tag} '${foreign.value}'`);
    }
    // The owner can reach what it created a moment ago (nothing else in the request can be wrong).
    const onlyFresh = op.pathParams.length > 0 && ownIds.length === op.pathParams.length && ownIds.every((id) => id.origin === 'fresh');
    const readable = !refusesByDesign(op, c.setup);
    if (sent.keyKind === 'A' && onlyFresh && readable && c.query.length === 0 && !c.rawQuery && !sent.body && received.status !== 200) {
      problems.push(`the resource '${ownIds[0]?.value}' was just created by ${creator?.label} but ${op.label} answered ${received.status}`);
    }
  }
  if (problems.length) throw new Error(describeExchange(sent, received, problems));
}

// ---------------------------------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------------------------------

describe('OpenAPI fuzz', () => {
  /** Answers to the seeding creates that broke the contract; reported by a test rather than aborting the file. */
  const seedProblems: string[] = [];

  beforeAll(async () => {
    console.log(`openapi fuzz: seed=${SEED} (replay with FUZZ_SEED=${SEED}), ${RUNS} runs per operation, ${operations.length} operations`);
    // Seed the pools: a few valid creates per group, twice so creates that refer to other groups find ids.
    const creators = operations.filter((o) => operations.some((p) => creatorOf(p) === o));
    for (let pass = 0; pass < 2; pass += 1) {
      for (const creator of creators) {
        for (const value of fc.sample(validArb(contextFor(creator), creator.body?.schema), { numRuns: 4, seed: SEED + pass })) {
          const sent = materialize(
            new FuzzCase(creator, {
              key: { kind: 'A' },
              params: {},
              query: [],
              rawQuery: '',
              contentType: undefined,
              extraHeaders: [],
              body: { kind: 'json', note: 'seed', value },
              setup: undefined,
            }),
            pools.A,
            undefined,
          );
          const { received, verdict } = await exchange(sent);
          if (verdict.problems.length) seedProblems.push(describeExchange(sent, received, verdict.problems));
        }
      }
    }
  }, 60_000);

  afterAll(() => {
    const histogram = (m: Map<number, number>) =>
      [...m.entries()]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}:${n}`)
        .join(' ');
    const lines = [...stats.entries()].map(
      ([label, s]) => `  ${label.padEnd(34)} ${String(s.runs).padStart(5)} requests  ${histogram(s.statuses)}`,
    );
    const total = [...overall.values()].reduce((a, b) => a + b, 0);
    console.log(
      [
        `openapi fuzz summary (seed ${SEED}): ${operations.length} operations in the document, ${stats.size} reached, ${total} requests`,
        ...lines,
        `  all: ${histogram(overall)}`,
        `  pools: A ${pools.A.size()} ids/tokens, B ${pools.B.size()}`,
      ].join('\n'),
    );
  });

  it('finds operations in the document', () => {
    expect(documentAnswer.status).toBe(200);
    expect(operations.length).toBeGreaterThan(0);
  });

  it('seeds the pools with valid creates that answer within their contract', () => {
    expect(seedProblems, seedProblems.join('\n\n')).toEqual([]);
  });

  for (const op of operations) {
    it(`${op.label} answers every request within its contract`, async () => {
      await fc.assert(
        fc.asyncProperty(caseArb(op), async (c) => {
          await runCase(c);
        }),
        { numRuns: RUNS, seed: SEED },
      );
    }, 300_000);
  }
});
