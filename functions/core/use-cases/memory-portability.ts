/**
 * Export and restore (POST /memories/export/{id}, GET /memories/export/{id}, POST /memories/restore): the
 * API's side. The work itself runs on the worker (ingest/export-memory.ts, ingest/restore-memory.ts).
 */
import { BadRequestError, ConflictError, NotFoundError } from '../errors';
import type { Memory } from '../model';
import { objectKeys } from '../object-keys';
import type { Clock, IdGenerator, MemoryStore, ObjectStore, QueuePort } from '../ports';
import type { UploadStore } from '../files/ports';
import type { ExportStore, MemoryExport, PortableArchives } from '../portable/ports';
import { readManifest } from '../portable/format';
import { getMemory, newMemory } from './memories';
import { takeStagedUpload } from './files';

export interface PortabilityDeps {
  memories: MemoryStore;
  exports: ExportStore;
  uploads: UploadStore;
  objects: ObjectStore;
  archives: PortableArchives;
  queue: QueuePort;
  clock: Clock;
  ids: IdGenerator;
  config: { maxUploadBytes: number; originRegion: string };
}

/** How long an export's address is valid. */
const EXPORT_URL_SECONDS = 60 * 60;

/** Starts writing the memory into an archive; answers the export's id. */
export async function startExport(deps: PortabilityDeps, accountId: string, memoryId: string): Promise<MemoryExport> {
  const memory = await getMemory(deps, accountId, memoryId);
  const id = deps.ids.uuid();
  const now = deps.clock.now().toISOString();
  const archiveKey = objectKeys.exportArchive(accountId, memory.id, id);
  const job: MemoryExport = {
    id,
    accountId,
    memoryId,
    state: 'running',
    archiveKey,
    size: null,
    error: null,
    createdAt: now,
    updatedAt: now,
  };
  await deps.exports.create(job);
  await deps.queue.send({ kind: 'memory.export', accountId, exportId: id });
  return job;
}

/** An export with, once completed, a time-limited address of its archive. */
export async function getExport(
  deps: PortabilityDeps,
  accountId: string,
  exportId: string,
): Promise<MemoryExport & { url: string | null }> {
  const job = await deps.exports.get(accountId, exportId);
  if (!job) throw NotFoundError.of('export', exportId);
  if (job.state !== 'completed') return { ...job, url: null };
  // erasure: deleting the memory, or text of it, deletes its archives
  if (!(await deps.objects.head(job.archiveKey))) {
    return { ...job, state: 'failed', error: 'the archive was deleted: its memory was deleted, or text in it was erased since', url: null };
  }
  return { ...job, url: await deps.objects.presignGet(job.archiveKey, EXPORT_URL_SECONDS) };
}

/** The claimant of uploads used as restore archives: one archive may be restored any number of times. */
const RESTORE_CLAIMANT = 'restore';

/**
 * Creates a memory from an export archive: the archive is an upload of this account, and its manifest
 * (its first member) is read now, so a foreign archive is refused before anything is made. The memory
 * starts `ingesting`; the worker fills it and it turns `ready`, or `failed` with nothing in it.
 */
export async function startRestore(
  deps: PortabilityDeps,
  accountId: string,
  input: { archiveKey: string; name?: string },
): Promise<Memory> {
  await claimArchive(deps, accountId, input.archiveKey);
  const manifest = await firstLook(deps, input.archiveKey);
  const settings = manifest.memory;
  const now = deps.clock.now().toISOString();
  const created = newMemory(
    { id: deps.ids.uuid(), accountId, now },
    {
      name: input.name ?? settings.name,
      description: settings.description,
      memoryType: settings.memoryType,
      ...(settings.ontology ? { ontology: settings.ontology } : {}),
      ...(settings.chunkSize !== null ? { chunkSize: settings.chunkSize } : {}),
      ...(settings.chunkOverlap !== null ? { chunkOverlap: settings.chunkOverlap } : {}),
      acceleration: settings.acceleration,
      factExtraction: settings.factExtraction,
    },
  );
  const memory: Memory = { ...created, step: 'ingesting' };
  await deps.memories.create(memory);
  await deps.queue.send({ kind: 'memory.restore', accountId, memoryId: memory.id, archiveKey: input.archiveKey });
  return memory;
}

async function claimArchive(deps: PortabilityDeps, accountId: string, key: string): Promise<void> {
  let upload;
  try {
    upload = await deps.uploads.claim(accountId, key, RESTORE_CLAIMANT);
  } catch (error) {
    if (error instanceof ConflictError) throw BadRequestError.forField('archiveKey', 'is already used by a file or an import');
    throw error;
  }
  if (!upload) throw BadRequestError.forField('archiveKey', 'is not a key that POST /files/upload returned to this account');
  if (upload.stagingKey) await takeStagedUpload(deps, { ...upload, stagingKey: upload.stagingKey }, RESTORE_CLAIMANT, 'archiveKey');
}

/** The archive's manifest, read from its first member (the rest is read by the worker). */
async function firstLook(deps: PortabilityDeps, key: string) {
  try {
    for await (const member of deps.archives.open(key)) return readManifest(member.path, member.data);
    return readManifest(undefined, undefined);
  } catch (error) {
    if (error instanceof BadRequestError) throw BadRequestError.forField('archiveKey', error.message);
    throw error;
  }
}
