/**
 * A memory deleted while its index is being published (issue #22: test/api/memories.test.ts found leftovers
 * under a loaded machine). The delete sweeps the memory's objects, then deletes the record last; a build or
 * merge whose conditional publish lands between the two finds the record still there, so it neither fails
 * nor sweeps what it wrote. Here that publish is run at exactly that moment, over memory stores: nothing of
 * the memory may be left once the delete returns.
 */
import { describe, expect, it } from 'vitest';
import { buildAndPublishIndex, type IndexDeps } from '../../functions/core/ingest/memory-index';
import { mergeMemory } from '../../functions/core/ingest/merge-memory';
import { objectKeys } from '../../functions/core/object-keys';
import type { ObjectStore } from '../../functions/core/ports';
import type { StoredChunk } from '../../functions/core/stored-index/chunks';
import { fileSource } from '../../functions/core/source-ref';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { createMemory, deleteMemory } from '../../functions/core/use-cases/memories';
import { memoryConfig, memoryDeps } from '../support/memory';

const deps = memoryDeps(memoryConfig({ KMEM_GRAPH_WORD_VECTORS: 'false' }));

async function memoryWithIndex(): Promise<{ accountId: string; memoryId: string }> {
  const accountId = (await createAccount(deps, `delete-race-${Math.random()}`)).account.id;
  const memoryId = (await createMemory(deps, accountId, { name: 'm', memoryType: 'vector' })).id;
  await publish(accountId, memoryId, ['keep', 'secret']);
  return { accountId, memoryId };
}

/** An ingestion's build of `fileIds` (linked first), as segments.test.ts publishes one. */
async function publish(accountId: string, memoryId: string, fileIds: readonly string[], worker: IndexDeps = deps.worker): Promise<void> {
  for (const fileId of fileIds) {
    const now = new Date().toISOString();
    await deps.links.create({
      id: `${fileId}-l`,
      accountId,
      memoryId,
      fileId,
      type: 'file',
      ingestedAt: null,
      createdAt: now,
      updatedAt: now,
    });
  }
  await buildAndPublishIndex(worker, accountId, memoryId, {
    added: new Map(fileIds.map((fileId) => [fileId, [chunk(fileId)]])),
    onlyAdded: true,
    changes: ({ chunkCount, fileCount }) => ({ chunkCount, fileCount }),
  });
}

const chunk = (fileId: string): StoredChunk => ({ id: `${fileId}:0`, fileId, text: `the ${fileId} owl hunts at night`, start: 0, end: 30 });

/**
 * Starts `publishing` (a build or a merge, on the worker's deps), holds it at its first write of the index,
 * deletes the memory, and lets the publish go on right after the delete has swept the memory's objects,
 * before its record goes: the publish writes its version after the sweep and succeeds (the record is still
 * there), as a worker does when the delete's listing of the memory's objects comes before its writes.
 */
async function deleteWhilePublishing(accountId: string, memoryId: string, publishing: (worker: IndexDeps) => Promise<void>): Promise<void> {
  const held = gate();
  const swept = gate();
  const objects = deps.worker.objects;
  const writes: ObjectStore = Object.assign(Object.create(objects) as ObjectStore, {
    put: async (...args: Parameters<ObjectStore['put']>) => {
      held.resolve();
      await swept.promise;
      return objects.put(...args);
    },
  });
  const published = publishing({ ...deps.worker, objects: writes });
  await held.promise;
  let released = false;
  const sweeps: ObjectStore = Object.assign(Object.create(deps.objects) as ObjectStore, {
    deletePrefix: async (prefix: string) => {
      await deps.objects.deletePrefix(prefix);
      if (prefix !== objectKeys.memoryPrefix(accountId, memoryId) || released) return;
      released = true;
      swept.resolve();
      await published;
      expect(await deps.memories.get(accountId, memoryId)).toBeDefined(); // published: the record named the new version
    },
  });
  await deleteMemory({ ...deps, objects: sweeps }, accountId, memoryId);
  await published;
}

/** A promise and what settles it. */
function gate(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

describe('a memory deleted while its index is published', () => {
  it('leaves nothing of a build that published after the sweep, before the record went', async () => {
    const { accountId, memoryId } = await memoryWithIndex();
    await deleteWhilePublishing(accountId, memoryId, (worker) => publish(accountId, memoryId, ['late'], worker));
    expect(await deps.memories.get(accountId, memoryId)).toBeUndefined();
    expect(await deps.objects.list(objectKeys.memoryPrefix(accountId, memoryId))).toEqual([]);
  });

  it('leaves nothing of a purge merge that published after the sweep, before the record went', async () => {
    const { accountId, memoryId } = await memoryWithIndex();
    // a removed file asks for the merge that purges it (docs/segments.md)
    await deps.memories.excludeSources(accountId, memoryId, [fileSource('secret')]);
    await deps.links.delete(accountId, memoryId, 'secret');
    await buildAndPublishIndex(deps.worker, accountId, memoryId, {
      added: new Map(),
      changes: ({ chunkCount, fileCount }) => ({ chunkCount, fileCount }),
    });
    await deleteWhilePublishing(accountId, memoryId, async (worker) => {
      expect(await mergeMemory(worker, { kind: 'memory.merge', accountId, memoryId })).toBe(1);
    });
    expect(await deps.memories.get(accountId, memoryId)).toBeUndefined();
    expect(await deps.objects.list(objectKeys.memoryPrefix(accountId, memoryId))).toEqual([]);
  });
});
