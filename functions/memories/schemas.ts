/** The memories group's contract (and the memory-file links). */
import { z } from 'zod';
import { MEMORY_TYPES, ONTOLOGIES } from '../core/model';
import { deleted, idString, issuedId, issuedIdParams, listOf, pageQuery, rule, success, timestamp } from '../http/common-schemas';
import { route } from '../http/route-spec';
import { memoryKnowledgeApi } from './knowledge-schemas';

const memoryType = z.enum(MEMORY_TYPES, { error: rule(`must be one of ${MEMORY_TYPES.join(', ')}`) });
const ontology = z.enum(ONTOLOGIES, { error: rule(`must be one of ${ONTOLOGIES.join(', ')}`) });
const webAddress = z.url({ protocol: /^https?$/, error: rule('must be an http or https address') }).max(2048);

const createMemoryBody = z
  .object({
    name: z.string().min(1).max(200),
    description: z.string().max(2000).optional(),
    memoryType,
    ontology: ontology
      .optional()
      .meta({ description: 'Required when memoryType is graph (the entity and relation types to extract); refused for a vector memory' }),
    chunkSize: z
      .number()
      .int()
      .min(100, { error: 'must be at least 100 characters' })
      .max(20_000)
      .optional()
      .meta({ description: 'Characters per chunk, vector memories only (graph memories chunk by their own rules)' }),
    chunkOverlap: z
      .number()
      .int()
      .min(1, { error: 'must be 1 to 50 (percent)' })
      .max(50, { error: 'must be 1 to 50 (percent)' })
      .optional()
      .meta({ description: 'Overlap between chunks in percent, vector memories only' }),
    webhookUrl: webAddress.optional().meta({ description: 'Receives signed memory.ingestion.* and file.* events' }),
    acceleration: z
      .boolean()
      .optional()
      .meta({ description: 'Build an approximate nearest-neighbour index (faster search on large memories)' }),
    factExtraction: z.boolean().optional().meta({ description: "Graph memories: keep each relation's source sentence as a fact" }),
  })
  .meta({
    id: 'CreateMemoryRequest',
    description: 'A graph memory needs `ontology` and takes no `chunkSize`/`chunkOverlap`; a vector memory takes no `ontology`.',
    example: { name: 'support knowledge', memoryType: 'graph', ontology: 'support_requests', factExtraction: true },
  });

const memoryCommon = {
  id: z.string(),
  name: z.string(),
  description: z.string(),
  memoryType,
  step: z.string(),
  chunkSize: z.number().int().nullable(),
  chunkOverlap: z.number().int().nullable(),
  acceleration: z.boolean(),
  factExtraction: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
};

const createdMemorySchema = z
  .object({
    ...memoryCommon,
    userID: z.string(),
    graphDBName: z.string(),
    vectorDBCollection: z.string(),
    adapterRepo: z.string(),
    adapterVersion: z.number().int(),
  })
  .meta({ id: 'CreatedMemory' });

const listedMemorySchema = z.object({ ...memoryCommon, userID: z.string() }).meta({ id: 'MemorySummary' });

const memoryDetailsSchema = z
  .object({
    ...memoryCommon,
    organizationID: z.string(),
    fileCount: z.number().int(),
    chunkCount: z.number().int(),
    entityCount: z.number().int(),
    relationCount: z.number().int(),
    factCount: z.number().int(),
    indexVersion: z.number().int(),
    failedFiles: z.array(z.object({ fileID: z.string(), error: z.string() })),
    failedFileCount: z.number().int(),
    lastError: z.string().nullable(),
    webhookDelivery: z
      .object({
        eventId: z.string(),
        eventType: z.string(),
        outcome: z.enum(['delivered', 'retrying', 'dead']),
        attempts: z.number().int(),
        lastStatus: z.number().int().nullable(),
        lastError: z.string().nullable(),
        at: timestamp,
        deadEvents: z.number().int(),
      })
      .nullable(),
  })
  .meta({ id: 'Memory', description: 'A memory with its ingestion step (select, queued, ingesting, ready, failed) and counts' });

const linkSchema = z
  .object({
    id: z.string(),
    fileID: z.string(),
    memoryID: z.string(),
    userID: z.string(),
    type: z.string(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'MemoryFileLink' });

const memoryIdBody = z.object({ memoryID: issuedId });
const sessionsBody = memoryIdBody.extend({ sessions: z.array(idString).min(1).max(100) });

export const memoriesApi = {
  create: route({
    group: 'memories',
    method: 'POST',
    path: '/memories/create',
    operationId: 'createMemory',
    summary: 'Create a graph or vector memory',
    body: createMemoryBody,
    response: success(createdMemorySchema),
    errors: [400, 401, 403, 500],
  }),
  addFiles: route({
    group: 'memories',
    method: 'POST',
    path: '/memories/add-files',
    operationId: 'addMemoryFiles',
    summary: 'Add files to a memory (memories created on or after 17-Dec-2024); `links` has one link per file',
    body: memoryIdBody.extend({ files: z.array(idString).min(1).max(100) }),
    response: success(linkSchema).extend({ links: z.array(linkSchema) }),
    errors: [400, 401, 403, 404, 500],
  }),
  startIngestion: route({
    group: 'memories',
    method: 'POST',
    path: '/memories/start-ingestion',
    operationId: 'startIngestion',
    summary: 'Start ingesting the files added to a memory; reserves the token budget',
    body: memoryIdBody,
    response: z.object({
      status: z.literal('success'),
      message: z.string(),
      data: z.object({
        tokenMetrics: z.object({
          tokensForIngestion: z.number().int(),
          tokensRemaining: z.number().int(),
          totalTokenLimit: z.number().int(),
        }),
        sampleCount: z.number().int(),
        jobID: z.string(),
      }),
    }),
    errors: [400, 401, 403, 404, 500],
  }),
  addSessions: route({
    group: 'memories',
    method: 'POST',
    path: '/memories/add-sessions',
    operationId: 'addMemorySessions',
    summary: 'Attach sessions: their messages, past and future, become part of the memory',
    body: sessionsBody,
    response: success(z.array(z.object({ memoryID: z.string(), sessionID: z.string(), createdAt: timestamp }))),
    errors: [400, 401, 403, 404, 500],
  }),
  removeSessions: route({
    group: 'memories',
    method: 'POST',
    path: '/memories/remove-sessions',
    operationId: 'removeMemorySessions',
    summary: 'Detach sessions and remove what they contributed',
    body: sessionsBody,
    response: z.object({ status: z.literal('success'), message: z.string() }),
    errors: [400, 401, 403, 404, 500],
  }),
  list: route({
    group: 'memories',
    method: 'GET',
    path: '/memories/list',
    operationId: 'listMemories',
    summary: 'List memories, oldest first, optionally by memoryType',
    list: true,
    query: pageQuery.extend({ memoryType: memoryType.optional() }),
    response: listOf('memories', listedMemorySchema),
    errors: [400, 401, 403, 500],
  }),
  get: route({
    group: 'memories',
    method: 'GET',
    path: '/memories/get/{id}',
    operationId: 'getMemory',
    summary: 'Get a memory with its ingestion step and counts',
    params: issuedIdParams,
    response: success(memoryDetailsSchema),
    errors: [400, 401, 403, 404, 500],
  }),
  ...memoryKnowledgeApi,
  delete: route({
    group: 'memories',
    method: 'DELETE',
    path: '/memories/delete/{id}',
    operationId: 'deleteMemory',
    summary: 'Delete a memory and everything derived from it (its files stay)',
    params: issuedIdParams,
    response: deleted,
    errors: [400, 401, 403, 404, 500],
  }),
  deleteFile: route({
    group: 'memories',
    method: 'DELETE',
    path: '/memories/delete-file',
    operationId: 'removeMemoryFile',
    summary: 'Remove a file from a memory, with everything it contributed',
    query: z.object({ fileID: idString, memoryID: issuedId }),
    response: z.object({ status: z.literal('success') }),
    errors: [400, 401, 403, 404, 500],
  }),
};
