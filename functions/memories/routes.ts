/** The memories group: each route calls one use case and shapes the answer. */
import type { Container } from '../adapters/container';
import { IndexCache } from '../core/stored-index/index-cache';
import type { VectorTierSetup } from '../core/vector-tier/ports';
import { vectorTierOf } from '../adapters/indexing';
import { type EntityView, lookUpEntities } from '../core/use-cases/memory-entities';
import { type UserProfile, userProfile } from '../core/use-cases/memory-profile';
import type { Memory, MemoryFileLink } from '../core/model';
import { startIngestion } from '../core/use-cases/ingestion';
import { createMemory, deleteMemory, getMemory, listMemories } from '../core/use-cases/memories';
import { addFiles, removeFileFromMemory } from '../core/use-cases/memory-files';
import { addSessions, removeSessions } from '../core/use-cases/conversations';
import { viewMemoryGraph } from '../core/use-cases/memory-graph-view';
import { dataResponse, deletedResponse, listResponse } from '../http/responses';
import { bind, type BoundRoute } from '../http/handler';
import { memoriesApi } from './schemas';

const common = (memory: Memory) => ({
  id: memory.id,
  name: memory.name,
  description: memory.description,
  memoryType: memory.memoryType,
  step: memory.step,
  chunkSize: memory.chunkSize,
  chunkOverlap: memory.chunkOverlap,
  acceleration: memory.acceleration,
  factExtraction: memory.factExtraction,
  createdAt: memory.createdAt,
  updatedAt: memory.updatedAt,
});

const presentListed = (memory: Memory) => ({ ...common(memory), userID: memory.accountId });

const presentCreated = (memory: Memory) => ({
  ...presentListed(memory),
  graphDBName: `kmem-graph-${memory.id}`,
  vectorDBCollection: `kmem-index-${memory.id}`,
  adapterRepo: memory.adapterRepo,
  adapterVersion: memory.adapterVersion,
});

const presentDetails = (memory: Memory) => ({
  ...common(memory),
  organizationID: memory.accountId,
  fileCount: memory.fileCount,
  chunkCount: memory.chunkCount,
  entityCount: memory.entityCount,
  relationCount: memory.relationCount,
  factCount: memory.factCount,
  indexVersion: memory.indexVersion,
  failedFiles: memory.failedFiles.map(({ fileId, error }) => ({ fileID: fileId, error })),
  failedFileCount: memory.failedFileCount,
  lastError: memory.lastError,
  webhookDelivery: memory.webhookDelivery,
});

const presentEntity = (entity: EntityView) => ({
  ...entity,
  facts: entity.facts.map(({ sourceId, ...fact }) => ({ ...fact, sourceID: sourceId })),
  passages: entity.passages.map(({ content, fileId }) => ({ content, fileID: fileId })),
});

const presentLink = (link: MemoryFileLink) => ({
  id: link.id,
  fileID: link.fileId,
  memoryID: link.memoryId,
  userID: link.accountId,
  type: link.type,
  createdAt: link.createdAt,
  updatedAt: link.updatedAt,
});

/** Graph memories whose segments a warm memories container keeps for entity look-ups. */
const ENTITY_GRAPH_CACHE_SIZE = 4;

/** The memories function's deps: the container and an index cache of its own, for entity look-ups. */
export type MemoriesDeps = Container & { entityIndexes: IndexCache; vectors?: VectorTierSetup };

/** Adds the entity look-ups' index cache to a container (once per container: the handler keeps it). */
export function withEntityIndexes<D extends Container>(base: D): D & MemoriesDeps {
  return { ...base, entityIndexes: new IndexCache(base.objects, ENTITY_GRAPH_CACHE_SIZE), ...vectorTierOf(base.config) };
}

export const memoryRoutes = (deps: MemoriesDeps): BoundRoute[] => [
  bind(memoriesApi.create, async ({ body }, { accountId }) => dataResponse(presentCreated(await createMemory(deps, accountId, body)))),
  bind(memoriesApi.addFiles, async ({ body }, { accountId }) => {
    const links = (await addFiles(deps, accountId, body.memoryID, body.files)).map(presentLink);
    return { body: { status: 'success', data: links[0], links } };
  }),
  bind(memoriesApi.startIngestion, async ({ body }, { accountId }) => {
    const started = await startIngestion(deps, accountId, body.memoryID);
    return {
      body: {
        status: 'success',
        message: `ingestion of ${started.job.fileIds.length} file(s) started`,
        data: {
          tokenMetrics: {
            tokensForIngestion: started.job.reservedTokens,
            tokensRemaining: started.tokensRemaining,
            totalTokenLimit: started.totalTokenLimit,
          },
          sampleCount: started.job.fileIds.length,
          jobID: started.job.id,
        },
      },
    };
  }),
  bind(memoriesApi.addSessions, async ({ body }, { accountId }) => {
    const links = await addSessions(deps, accountId, body.memoryID, body.sessions);
    return dataResponse(links.map((l) => ({ memoryID: l.memoryId, sessionID: l.sessionId, createdAt: l.createdAt })));
  }),
  bind(memoriesApi.removeSessions, async ({ body }, { accountId }) => {
    await removeSessions(deps, accountId, body.memoryID, body.sessions);
    return deletedResponse(`${body.sessions.length} session(s) removed from memory '${body.memoryID}'`);
  }),
  bind(memoriesApi.list, async ({ query }, { accountId }) =>
    listResponse('memories', await listMemories(deps, accountId, query.memoryType, query), presentListed),
  ),
  bind(memoriesApi.get, async ({ params }, { accountId }) => dataResponse(presentDetails(await getMemory(deps, accountId, params.id)))),
  bind(memoriesApi.graph, async ({ params, query }, { accountId }) => {
    const page = await viewMemoryGraph(deps, accountId, params.id, query);
    return { body: { status: 'success', ...page, count: page.nodes.length } };
  }),
  bind(memoriesApi.entities, async ({ params, query }, { accountId }) => {
    const entities = await lookUpEntities({ ...deps, indexes: deps.entityIndexes }, accountId, params.id, query);
    return { body: { status: 'success', entities: entities.map(presentEntity), count: entities.length } };
  }),
  bind(memoriesApi.profile, async ({ params, query }, { accountId }) => {
    const request = { customerUserId: query.customerUserID, asOf: query.asOf };
    const profile = await userProfile({ ...deps, indexes: deps.entityIndexes }, accountId, params.id, request);
    const present = (entries: UserProfile['facts']) => entries.map(({ sourceId, ...entry }) => ({ ...entry, sourceID: sourceId }));
    return dataResponse({
      customerUserID: profile.customerUserId,
      preferences: present(profile.preferences),
      facts: present(profile.facts),
    });
  }),
  bind(memoriesApi.delete, async ({ params }, { accountId }) => {
    await deleteMemory(deps, accountId, params.id);
    return deletedResponse(`memory '${params.id}' deleted`);
  }),
  bind(memoriesApi.deleteFile, async ({ query }, { accountId }) => {
    await removeFileFromMemory(deps, accountId, query.memoryID, query.fileID);
    return { body: { status: 'success' } };
  }),
];
