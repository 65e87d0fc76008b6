/** Schemas every group shares: ids, page queries, envelopes, error bodies. */
import { z } from 'zod';

z.config({
  customError: (issue) => (issue.input === undefined && issue.code === 'invalid_type' ? 'is required' : undefined),
});

/** An error message for a rule, keeping 'is required' for absent values. */
export const rule = (message: string) => (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : message);

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const ID_RULE = 'must be 1-128 letters, digits, dots, dashes, colons or underscores';

/**
 * The one rule of ids. Kinds a caller may name (files, sessions, messages): `idString`, what kmem
 * generates (a UUID) or a caller-supplied id, URL- and key-safe. Kinds only kmem issues (memories, users):
 * `issuedId`, a UUID. A value that cannot be such an id is 400 `bad_request` naming the field; a
 * well-formed id nobody holds stays 404.
 */
export const idString = z.string({ error: rule(ID_RULE) }).regex(ID_PATTERN, { error: rule(ID_RULE) });

const ISSUED_ID_RULE = 'must be an id kmem issued (a UUID)';
export const issuedId = z.uuid({ error: rule(ISSUED_ID_RULE) });

export const idParams = z.object({ id: idString });
export const issuedIdParams = z.object({ id: issuedId });

/** A whole number written in a query string, from `min` to `max`; typed `integer` in the OpenAPI document. */
export const queryInteger = (min: number, max: number) => {
  const error = `must be an integer from ${min} to ${max}`;
  return z.preprocess(
    (value) => (typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value),
    z.number({ error }).int({ error }).min(min, { error }).max(max, { error }),
  );
};

/** `true`/`false` (or `1`/`0`) in a query string; typed `boolean` in the OpenAPI document. */
export const queryFlag = z.preprocess(
  (value) => (value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value),
  z.boolean({ error: 'must be true or false' }),
);

const pageToken = z.string().min(1).max(2048);

/** `topK` of searches: an integer from 1 to 100 in the query string. */
export const topKQuery = (fallback: number) => queryInteger(1, 100).optional().default(fallback);

/** A page of a listing: `limit` (1 to `maxLimit`, default 10) and the tokens of the neighbouring pages. */
export const pageQueryUpTo = (maxLimit: number) =>
  z.object({
    limit: queryInteger(1, maxLimit).optional().default(10),
    nextToken: pageToken.optional(),
    previousToken: pageToken.optional(),
  });

export const pageQuery = pageQueryUpTo(100);

export const timestamp = z.iso.datetime({ offset: true });

/** The bounds of a metadata list: pairs, key length (and pattern), value length, and all keys and values in UTF-8 bytes. */
interface MetadataBounds {
  maxPairs: number;
  key: z.ZodString;
  minValueChars: number;
  maxValueChars: number;
  maxBytes?: number;
}

const metadataBytes = (entries: ReadonlyArray<{ key: string; value: string }>): number =>
  entries.reduce((sum, entry) => sum + Buffer.byteLength(entry.key) + Buffer.byteLength(entry.value), 0);

/** The one rule of `metadata` lists, `[{key, value}]`, that sessions and files take, with their own bounds. */
export const metadataList = (bounds: MetadataBounds) => {
  const entry = z.object({ key: bounds.key, value: z.string().min(bounds.minValueChars).max(bounds.maxValueChars) });
  const list = z.array(entry).max(bounds.maxPairs);
  const { maxBytes } = bounds;
  return maxBytes === undefined
    ? list
    : list.refine((entries) => metadataBytes(entries) <= maxBytes, {
        error: `keys and values together must be at most ${maxBytes / 1024} KB (UTF-8)`,
      });
};

/** A metadata list as answers carry it. */
export const metadataEntries = z.array(z.object({ key: z.string(), value: z.string() }));

/** A caller-supplied instant (ISO 8601 with offset), normalised to UTC; years outside 1-9999 are refused. */
export const instant = timestamp
  .transform((value) => new Date(value))
  .refine((date) => date.getUTCFullYear() >= 1 && date.getUTCFullYear() <= 9999, {
    error: 'must fall within the years 0001-9999 once converted to UTC',
  })
  .transform((date) => date.toISOString());

export const success = <T extends z.ZodType>(data: T) => z.object({ status: z.literal('success'), data });

export const deleted = z.object({ status: z.literal('success'), message: z.string() });

export const listOf = <K extends string, T extends z.ZodType>(name: K, item: T) =>
  z.object({
    status: z.literal('success'),
    [name]: z.array(item),
    count: z.number().int().min(0),
    nextToken: z.string().nullable(),
    previousToken: z.string().nullable(),
  } as Record<K | 'status' | 'count' | 'nextToken' | 'previousToken', z.ZodType>);

export const errorBody = z.object({ error: z.string(), status: z.string(), data: z.record(z.string(), z.unknown()).optional() }).meta({
  id: 'Error',
  description:
    '`status` is bad_request, unauthorized, forbidden, not_found, rate_limited, error or internal server error; `error` names the field and the problem',
});
export const detailBody = z
  .object({ detail: z.string() })
  .meta({ id: 'RetrievalError', description: 'Errors of GET /memory keep the `{detail}` body' });
