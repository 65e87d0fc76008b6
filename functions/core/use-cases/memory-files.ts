/** The files of a memory: add-files and delete-file (with the 17-Dec-2024 rule). */
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../errors';
import { fileSource, type Memory, type MemoryFileLink } from '../model';
import { objectKeys } from '../object-keys';
import type { WorkMessage } from '../work';
import { mapConcurrently, STORE_CONCURRENCY } from '../concurrency';
import { detachFile, getMemory } from './memories';
import type { MemoryFileDeps } from '../files/memory-links';

/** add-files and delete-file work only with memories created on or after this day (interface, 9.2). */
const FILE_LINKS_SINCE = '2024-12-17T00:00:00.000Z';

async function linkableMemory(deps: MemoryFileDeps, accountId: string, memoryId: string): Promise<Memory> {
  const memory = await getMemory(deps, accountId, memoryId);
  if (memory.createdAt < FILE_LINKS_SINCE) {
    throw new ForbiddenError(`memoryID: memory '${memoryId}' was created before 17-Dec-2024; its files cannot change`);
  }
  return memory;
}

/** Links files to a memory. Every id is checked before anything is written. */
export async function addFiles(deps: MemoryFileDeps, accountId: string, memoryId: string, fileIds: string[]): Promise<MemoryFileLink[]> {
  await linkableMemory(deps, accountId, memoryId);
  const [files, linked] = await Promise.all([deps.files.getMany(accountId, fileIds), deps.links.getMany(accountId, memoryId, fileIds)]);
  const seen = new Set<string>();
  for (const [i, fileId] of fileIds.entries()) {
    if (seen.has(fileId)) throw BadRequestError.forField(`files.${i}`, `file '${fileId}' is listed twice`);
    seen.add(fileId);
    const file = files.get(fileId);
    if (!file) throw NotFoundError.of('file', fileId);
    if (file.parentFileId) {
      throw BadRequestError.forField(`files.${i}`, `file '${fileId}' is part of '${file.parentFileId}'; add that file`);
    }
    if (linked.has(fileId)) throw BadRequestError.forField(`files.${i}`, `file '${fileId}' is already in memory '${memoryId}'`);
  }
  const outcomes = await mapConcurrently(fileIds, STORE_CONCURRENCY, (fileId) =>
    link(deps, accountId, memoryId, fileId).then(
      (created) => ({ created }),
      (error: unknown) => ({ error }),
    ),
  );
  const links = outcomes.flatMap((outcome) => ('created' in outcome ? [outcome.created] : []));
  // a file removed earlier and linked again leaves the exclusion only once its link exists
  await deps.memories.includeSources(
    accountId,
    memoryId,
    links.map((created) => fileSource(created.fileId)),
  );
  const failed = outcomes.find((outcome) => 'error' in outcome);
  if (failed && 'error' in failed) throw failed.error;
  return links;
}

async function link(deps: MemoryFileDeps, accountId: string, memoryId: string, fileId: string): Promise<MemoryFileLink> {
  const now = deps.clock.now().toISOString();
  const created: MemoryFileLink = {
    id: deps.ids.uuid(),
    accountId,
    memoryId,
    fileId,
    type: 'file',
    ingestedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await deps.links.create(created);
  } catch (error) {
    if (error instanceof ConflictError) {
      throw BadRequestError.forField('files', `file '${fileId}' is already in memory '${memoryId}'`);
    }
    throw error;
  }
  return created;
}

/**
 * Removes a file from a memory. Its chunks leave retrieval at once (the memory excludes the file) and
 * its derived objects are deleted; the worker then publishes an index without it.
 */
export async function removeFileFromMemory(deps: MemoryFileDeps, accountId: string, memoryId: string, fileId: string): Promise<void> {
  await linkableMemory(deps, accountId, memoryId);
  if (!(await deps.files.get(accountId, fileId))) throw NotFoundError.of('file', fileId);
  if (!(await deps.links.get(accountId, memoryId, fileId))) {
    throw new NotFoundError(`file '${fileId}' is not in memory '${memoryId}'`);
  }
  await deps.memories.excludeSources(accountId, memoryId, [fileSource(fileId)]);
  await detachFile(deps, accountId, memoryId, fileId);
  await deps.objects.delete(objectKeys.chunks(accountId, memoryId, fileId));
  await deps.queue.send({ kind: 'memory.reindex', accountId, memoryId } satisfies WorkMessage);
}
