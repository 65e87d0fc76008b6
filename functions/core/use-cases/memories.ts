/** Memories: create, read, list and delete (with everything derived from them). */
import { dropEveryGeneration } from '../vector-tier/generations';
import type { VectorTierSetup } from '../vector-tier/ports';
import { BadRequestError, NotFoundError } from '../errors';
import type { Memory, MemoryType, Ontology, Page, PageRequest } from '../model';
import { objectKeys } from '../object-keys';
import type {
  Clock,
  ConversationSyncStore,
  GraphItemStore,
  IdGenerator,
  JobStore,
  LinkStore,
  MemoryStore,
  ObjectStore,
  SessionLinkStore,
} from '../ports';
import type { FileStore } from '../files/ports';
import { VECTOR_CHUNK_DEFAULTS } from '../../engine';
import { checkWebhookUrl } from './webhooks';

/** The extraction and indexing adapter that builds memories offline, and its index format version. */
const OFFLINE_ADAPTER = { repo: 'kmem/offline', version: 1 } as const;

export interface MemoryDeps {
  memories: MemoryStore;
  files: FileStore;
  links: LinkStore;
  sessionLinks: SessionLinkStore;
  jobs: JobStore;
  objects: ObjectStore;
  graphItems: GraphItemStore;
  conversationSync: ConversationSyncStore;
  clock: Clock;
  ids: IdGenerator;
  /** Every address of a host name, for the webhook address check (see AddressGuardOptions.resolve). */
  resolve: (host: string) => Promise<string[]>;
  config: { allowPrivateUrls: boolean };
  /** The vector tier, when the stage turns it on: a deleted memory's vector index goes with it. */
  vectors?: Pick<VectorTierSetup, 'tier'>;
}

export interface NewMemory {
  name: string;
  description?: string;
  memoryType: MemoryType;
  ontology?: Ontology;
  chunkSize?: number;
  chunkOverlap?: number;
  webhookUrl?: string;
  acceleration?: boolean;
  factExtraction?: boolean;
}

export async function createMemory(deps: MemoryDeps, accountId: string, input: NewMemory): Promise<Memory> {
  checkTypeSettings(input);
  if (input.webhookUrl) await checkWebhookUrl(deps, input.webhookUrl);
  const memory = newMemory({ id: deps.ids.uuid(), accountId, now: deps.clock.now().toISOString() }, input);
  await deps.memories.create(memory);
  return memory;
}

/** A memory as created: its settings with their defaults, nothing ingested yet. */
export function newMemory(identity: { id: string; accountId: string; now: string }, input: NewMemory): Memory {
  const { id, accountId, now } = identity;
  const vector = input.memoryType === 'vector';
  return {
    id,
    accountId,
    name: input.name,
    description: input.description ?? '',
    memoryType: input.memoryType,
    ontology: input.ontology ?? null,
    chunkSize: vector ? (input.chunkSize ?? VECTOR_CHUNK_DEFAULTS.chunkSize) : null,
    chunkOverlap: vector ? (input.chunkOverlap ?? VECTOR_CHUNK_DEFAULTS.overlapPercent) : null,
    webhookUrl: input.webhookUrl ?? null,
    acceleration: input.acceleration ?? false,
    factExtraction: input.factExtraction ?? false,
    step: 'select',
    adapterRepo: OFFLINE_ADAPTER.repo,
    adapterVersion: OFFLINE_ADAPTER.version,
    indexVersion: 0,
    indexPrefix: null,
    chunkCount: 0,
    fileCount: 0,
    entityCount: 0,
    relationCount: 0,
    factCount: 0,
    currentJobId: null,
    failedFiles: [],
    failedFileCount: 0,
    excludedFileIds: [],
    lastError: null,
    webhookDelivery: null,
    createdAt: now,
    updatedAt: now,
  };
}

function checkTypeSettings(input: NewMemory): void {
  if (input.memoryType === 'graph') {
    if (!input.ontology) throw BadRequestError.forField('ontology', 'is required for a graph memory');
    if (input.chunkSize !== undefined) throw BadRequestError.forField('chunkSize', 'applies to vector memories only');
    if (input.chunkOverlap !== undefined) {
      throw BadRequestError.forField('chunkOverlap', 'applies to vector memories only');
    }
  } else if (input.ontology !== undefined) {
    throw BadRequestError.forField('ontology', 'applies to graph memories only');
  }
}

export async function getMemory(deps: Pick<MemoryDeps, 'memories'>, accountId: string, id: string): Promise<Memory> {
  const memory = await deps.memories.get(accountId, id);
  if (!memory) throw NotFoundError.of('memory', id);
  return memory;
}

export function listMemories(
  deps: MemoryDeps,
  accountId: string,
  memoryType: MemoryType | undefined,
  page: PageRequest,
): Promise<Page<Memory>> {
  return deps.memories.list(accountId, memoryType, page);
}

/**
 * Deletes a memory and all it owns: links, finished jobs, chunks and index segments. Jobs still queued or
 * running are left for the worker, which finds the memory gone, refunds their reservation and ends them.
 * The memory record goes last, so a delete that fails halfway can simply be repeated; its objects are swept
 * before and again after it (a publish may land between the first sweep and the record's delete).
 */
export async function deleteMemory(deps: MemoryDeps, accountId: string, id: string): Promise<void> {
  await getMemory(deps, accountId, id);
  for (const link of await deps.links.listByMemory(accountId, id)) await detachFile(deps, accountId, id, link.fileId);
  for (const link of await deps.sessionLinks.listByMemory(accountId, id)) {
    await deps.sessionLinks.delete(accountId, id, link.sessionId);
  }
  for (const job of await deps.jobs.listByMemory(accountId, id)) {
    if (job.state === 'completed' || job.state === 'failed') await deps.jobs.delete(accountId, job.id);
  }
  await sweepMemory(deps, accountId, id);
  await deps.graphItems.deleteAll(accountId, id);
  await deps.conversationSync.delete(accountId, id);
  await deps.memories.delete(accountId, id);
  // again once the record is gone: a build or merge that wrote after the first sweep's listing and published
  // before the record went left its version behind; one that publishes later fails and sweeps its own
  await sweepMemory(deps, accountId, id);
}

/** Deletes the memory's objects (chunks, index versions and segments, exports) and its vector index. */
async function sweepMemory(deps: Pick<MemoryDeps, 'objects' | 'vectors'>, accountId: string, id: string): Promise<void> {
  await deps.objects.deletePrefix(objectKeys.memoryPrefix(accountId, id));
  if (deps.vectors) await dropEveryGeneration(deps.vectors.tier, { accountId, memoryId: id }); // its vector index, when the stage has the tier
}

/** Unlinks a file from a memory and forgets the file's artefacts that lived in that memory. */
export async function detachFile(
  deps: Pick<MemoryDeps, 'files' | 'links'>,
  accountId: string,
  memoryId: string,
  fileId: string,
): Promise<void> {
  const file = await deps.files.get(accountId, fileId);
  if (file?.goldChunkKey?.startsWith(objectKeys.memoryPrefix(accountId, memoryId))) {
    await deps.files.update(accountId, fileId, { goldChunkKey: null, jobId: null });
  }
  await deps.links.delete(accountId, memoryId, fileId);
}
