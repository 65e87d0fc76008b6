/**
 * `filter` of `GET /memory/` and `GET /messages/search`: a JSON object in the query string (URL-encoded)
 * whose conditions all hold for what is returned (core/stored-index/search-filter.ts). An unknown or malformed
 * condition is 400 naming it (`filter.fileTypes.0: must be one of ...`, `filter: unknown condition 'x'`).
 */
import { z } from 'zod';
import { FILE_METADATA } from '../core/files/file-metadata';
import { FILE_TYPES, MESSAGE_ROLES } from '../core/model';
import type { SearchFilter } from '../core/stored-index/search-filter';
import { idString, rule } from './common-schemas';

const CONDITIONS = ['fileIDs', 'fileTypes', 'sessionIDs', 'customerUserIDs', 'roles', 'sourceKeyPrefix', 'metadata'] as const;
/** Values a list condition may hold. */
const MAX_VALUES = 100;

const anyOf = <T extends z.ZodType>(item: T) =>
  z
    .array(item, { error: rule('must be an array') })
    .min(1, { error: 'must hold at least one value' })
    .max(MAX_VALUES);

const metadataKey = z.string().regex(FILE_METADATA.keyPattern);
const metadataValue = z
  .string({ error: rule('must be a string') })
  .min(1)
  .max(FILE_METADATA.maxValueChars);

const conditions = z.strictObject(
  {
    fileIDs: anyOf(idString).optional(),
    fileTypes: anyOf(z.enum(FILE_TYPES, { error: rule(`must be one of ${FILE_TYPES.join(', ')}`) })).optional(),
    sessionIDs: anyOf(idString).optional(),
    customerUserIDs: anyOf(z.string().min(1).max(256)).optional(),
    roles: anyOf(z.enum(MESSAGE_ROLES, { error: rule(`must be one of ${MESSAGE_ROLES.join(', ')}`) })).optional(),
    sourceKeyPrefix: z
      .string({ error: rule('must be a string') })
      .min(1)
      .max(1024)
      .optional(),
    metadata: z
      .record(metadataKey, z.union([metadataValue, anyOf(metadataValue)], { error: 'must be a string or an array of strings' }), {
        error: metadataError,
      })
      .optional(),
  },
  { error: conditionError },
);

/** An unknown condition is named with the ones there are. */
function conditionError(issue: { code?: string; keys?: readonly string[]; input?: unknown }): string | undefined {
  if (issue.code !== 'unrecognized_keys') return undefined;
  const names = (issue.keys ?? []).map((key) => `'${key}'`).join(', ');
  return `unknown condition ${names}; the conditions are ${CONDITIONS.join(', ')}`;
}

function metadataError(issue: { code?: string; input?: unknown }): string {
  if (issue.code === 'invalid_key') return `a metadata key ${FILE_METADATA.keyRule}`;
  return issue.input === undefined ? 'is required' : 'must be an object of metadata keys and values';
}

type WireFilter = z.infer<typeof conditions>;

/** The query parameter: JSON text parsed, then checked condition by condition; answers the domain filter. */
export const filterQuery = z
  .string()
  .max(4096)
  .transform((text, context): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      context.addIssue({ code: 'custom', message: 'must be a JSON object (URL-encoded)' });
      return z.NEVER;
    }
  })
  .pipe(z.object({}, { error: 'must be a JSON object (URL-encoded)' }).passthrough().pipe(conditions))
  .transform(toSearchFilter)
  .meta({
    description:
      'A JSON object (URL-encoded) whose conditions all hold for every result: fileIDs, fileTypes, sessionIDs, customerUserIDs, roles (arrays: any of), sourceKeyPrefix (string), metadata (object: each key equals the string, or one of the array of strings)',
    example: '{"fileTypes":["document"],"metadata":{"lang":["de","at"]}}',
  });

function toSearchFilter(wire: WireFilter): SearchFilter {
  const metadata = wire.metadata
    ? Object.fromEntries(Object.entries(wire.metadata).map(([key, value]) => [key, typeof value === 'string' ? [value] : value]))
    : undefined;
  const filter: SearchFilter = {
    fileIds: wire.fileIDs,
    fileTypes: wire.fileTypes,
    sessionIds: wire.sessionIDs,
    customerUserIds: wire.customerUserIDs,
    roles: wire.roles,
    sourceKeyPrefix: wire.sourceKeyPrefix,
    metadata,
  };
  return Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined));
}
