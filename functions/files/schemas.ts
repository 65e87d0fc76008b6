/** The files group's contract. */
import { z } from 'zod';
import { FILE_CATEGORIES, FILE_TYPES } from '../core/model';
import { FILE_METADATA } from '../core/files/file-metadata';
import {
  deleted,
  idParams,
  idString,
  issuedId,
  listOf,
  metadataEntries,
  metadataList,
  pageQuery,
  rule,
  success,
  timestamp,
} from '../http/common-schemas';
import { route } from '../http/route-spec';

const fileType = z.enum(FILE_TYPES, { error: rule(`must be one of ${FILE_TYPES.join(', ')}`) });
const categoryFilter = z.enum([...FILE_CATEGORIES, 'all'], {
  error: rule(`must be one of ${[...FILE_CATEGORIES, 'all'].join(', ')}`),
});

/** A file's metadata (decisions.md): at most 32 pairs, keys of letters, digits, `_ . -`, values 1-256 characters. */
const fileMetadata = metadataList({
  maxPairs: FILE_METADATA.maxPairs,
  key: z.string({ error: rule(FILE_METADATA.keyRule) }).regex(FILE_METADATA.keyPattern, { error: rule(FILE_METADATA.keyRule) }),
  minValueChars: 1,
  maxValueChars: FILE_METADATA.maxValueChars,
}).meta({ description: 'At most 32 `{key, value}` pairs; search filters match them (`filter.metadata`)' });

const createFileBody = z
  .object({
    name: z.string().min(1).max(255),
    id: idString.optional(),
    key: z.string().min(1).max(1024).optional(),
    external_uri: z.string().min(1).max(2048).optional(),
    fileType,
    sourceKey: z.string().min(1).max(1024).optional(),
    metadata: fileMetadata.optional(),
  })
  .meta({
    id: 'CreateFileRequest',
    description:
      'Give `key` (from files/upload or files/upload-url) for uploaded bytes, or `external_uri` for a web address; `website`, `sitemap` and `website_bulk` files take `external_uri` only.',
    example: { name: 'handbook.pdf', key: 'uploads/5b0c.../handbook.pdf', fileType: 'pdf' },
  });

const importBody = z.object({
  archiveKey: z.string().min(1).max(1024).optional(),
  s3: z.object({ bucket: z.string().min(3).max(63), prefix: z.string().max(1024).default('') }).optional(),
  memoryID: issuedId.optional(),
  fileType: fileType.optional(),
  prune: z.boolean().optional(),
  metadata: fileMetadata.optional(),
});

const fileMetadataBody = z.object({ metadata: fileMetadata }).meta({ id: 'FileMetadataRequest' });

const importSchema = z.object({
  importID: z.string(),
  state: z.enum(['running', 'completed', 'failed']),
  total: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  deleted: z.number().int(),
  failed: z.number().int(),
  errors: z.array(z.object({ sourceKey: z.string(), error: z.string() })),
  memoryID: z.string().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

const uploadUrlBody = z.object({
  name: z.string().min(1).max(255),
  contentType: z.string().min(1).max(255).optional(),
  /** The exact size in bytes of what will be PUT (signed into the address; at most KMEM_MAX_UPLOAD_MB). */
  size: z.number().int().min(1, { error: 'must be the file size in bytes (at least 1)' }),
});

const uploaded = z
  .object({
    key: z.string(),
    name: z.string(),
    size: z.number().int().min(0),
    contentType: z.string(),
  })
  .meta({ id: 'Upload' });

const nullableString = z.string().nullable();
const nullableNumber = z.number().nullable();

const fileCommon = {
  id: z.string(),
  name: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
  state: z.enum(['pending', 'processing', 'ready', 'failed']),
  error: nullableString,
};

const createdFileSchema = z
  .object({
    ...fileCommon,
    extension: z.string(),
    fileType,
    category: z.string(),
    bronzeKey: nullableString,
    organisationID: z.string(),
    externalURI: nullableString,
    originRegion: z.string(),
    numSpeakers: nullableNumber,
  })
  .meta({ id: 'CreatedFile' });

const listedFileSchema = z
  .object({
    ...fileCommon,
    extension: z.string(),
    fileType,
    category: z.string(),
    bronzeKey: nullableString,
    userID: z.string(),
    length: nullableNumber,
    size: nullableNumber,
    tokens: nullableNumber,
    numSpeakers: nullableNumber,
    metadata: metadataEntries,
  })
  .meta({ id: 'FileSummary' });

const fileDetailsSchema = listedFileSchema
  .extend({
    externalURI: nullableString,
    memoryID: nullableString,
    botID: nullableString,
    jobID: nullableString,
    source: z.string(),
    originRegion: z.string(),
    silverTranscriptKey: nullableString,
    silverAudioKey: nullableString,
    goldAudioKey: nullableString,
    goldChunkKey: nullableString,
    goldGraphKey: nullableString,
    aiKey: nullableString,
    content: nullableString,
    /** True when `content` is the first FILE_CONTENT_CHARS characters only; `contentUrl` then has it whole. */
    contentTruncated: z.boolean(),
    contentUrl: nullableString,
    sourceKey: nullableString,
    hiddenFilesTotal: z.number().int(),
    hiddenFilesProcessed: z.number().int(),
    hiddenFilesCreated: z.number().int(),
    hiddenFilesIngested: z.number().int(),
  })
  .meta({ id: 'File', description: 'A file with its processing state (pending, processing, ready, failed) and extracted text' });

export const filesApi = {
  upload: route({
    group: 'files',
    method: 'POST',
    path: '/files/upload',
    operationId: 'uploadFile',
    summary: 'Upload raw bytes (multipart form, one part named `file`); answers the key files/create takes',
    rawBody: true,
    response: success(uploaded),
    errors: [400, 401, 403, 413, 500],
  }),
  uploadUrl: route({
    group: 'files',
    method: 'POST',
    path: '/files/upload-url',
    operationId: 'createUploadUrl',
    summary: 'Get a presigned address to PUT the bytes to directly (for large files), with the key for files/create',
    body: uploadUrlBody,
    response: success(uploaded.extend({ uploadUrl: z.string(), expiresAt: timestamp }).meta({ id: 'UploadUrl' })),
    errors: [400, 401, 403, 500],
  }),
  create: route({
    group: 'files',
    method: 'POST',
    path: '/files/create',
    operationId: 'createFile',
    summary: 'Create a file from an upload key or a web address; processing starts at once',
    body: createFileBody,
    response: success(createdFileSchema),
    errors: [400, 401, 403, 500],
  }),
  list: route({
    group: 'files',
    method: 'GET',
    path: '/files/list',
    operationId: 'listFiles',
    summary: 'List files, oldest first, optionally by category',
    list: true,
    query: pageQuery.extend({ category: categoryFilter.optional() }),
    response: listOf('files', listedFileSchema),
    errors: [400, 401, 403, 500],
  }),
  get: route({
    group: 'files',
    method: 'GET',
    path: '/files/get/{id}',
    operationId: 'getFile',
    summary: 'Get a file with its extracted text and processing state',
    params: idParams,
    response: success(fileDetailsSchema),
    errors: [400, 401, 403, 404, 500],
  }),
  import: route({
    group: 'files',
    method: 'POST',
    path: '/files/import',
    summary: 'Import many files at once from an uploaded archive (.zip, .tar, .tar.gz) or an S3 prefix; answers the import id',
    body: importBody,
    response: success(z.object({ importID: z.string() })),
    errors: [400, 401, 403, 404, 500],
  }),
  importStatus: route({
    group: 'files',
    method: 'GET',
    path: '/files/import/{id}',
    summary: 'Progress of an import: counts of created, updated, unchanged, deleted and failed members, first errors',
    params: idParams,
    response: success(importSchema),
    errors: [400, 401, 403, 404, 500],
  }),
  resync: route({
    group: 'files',
    method: 'POST',
    path: '/files/resync/{id}',
    summary:
      'Fetch a website, sitemap or website_bulk file again: unchanged pages cost nothing, changed ones update, new ones are added, vanished ones removed',
    params: idParams,
    response: success(createdFileSchema),
    errors: [400, 401, 403, 404, 500],
  }),
  metadata: route({
    group: 'files',
    method: 'POST',
    path: '/files/metadata/{id}',
    operationId: 'setFileMetadata',
    summary:
      "Replace a file's metadata; nothing is processed or ingested again, and searches filter by the new metadata from the next query on",
    params: idParams,
    body: fileMetadataBody,
    response: success(listedFileSchema),
    errors: [400, 401, 403, 404, 500],
  }),
  delete: route({
    group: 'files',
    method: 'DELETE',
    path: '/files/delete/{id}',
    operationId: 'deleteFile',
    summary: 'Delete a file that no memory uses, with its raw and derived objects',
    params: idParams,
    response: deleted,
    errors: [400, 401, 403, 404, 500],
  }),
};
