/**
 * The `filter` argument of the search_memory and search_messages tools: the API's `filter` conditions as
 * an object (the API checks them and answers an unknown or malformed one as an error naming it).
 */
import { z } from 'zod';
import { FILE_TYPES, MESSAGE_ROLES } from '../core/model';

export const filterInput = z
  .object({
    fileIDs: z.array(z.string()).optional().describe('Only passages of these files (at most 100)'),
    fileTypes: z.array(z.enum(FILE_TYPES)).optional().describe('Only files of these types'),
    sessionIDs: z.array(z.string()).optional().describe('Only messages of these sessions'),
    customerUserIDs: z.array(z.string()).optional().describe('Only messages of these customers'),
    roles: z.array(z.enum(MESSAGE_ROLES)).optional().describe('Only messages of these roles'),
    sourceKeyPrefix: z
      .string()
      .optional()
      .describe('Only files whose sourceKey starts so (an import: s3://bucket/prefix or archive:name/)'),
    metadata: z
      .record(z.string(), z.union([z.string(), z.array(z.string())]))
      .optional()
      .describe('Only sources whose metadata has each key with this value (or one of these values)'),
  })
  .describe('Conditions every result holds (all of them)');

/** The tool's filter as the API's query parameter. */
export const filterParam = (filter: z.infer<typeof filterInput> | undefined): { filter?: string } =>
  filter ? { filter: JSON.stringify(filter) } : {};
