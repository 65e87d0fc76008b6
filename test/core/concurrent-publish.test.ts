/**
 * Concurrent builds of one memory (several sessions synced at once, say) each write their own folder and
 * publish with a conditional write: the published index is always one whole build, and the folders of
 * builds that lost or are superseded are deleted.
 */
import { describe, expect, it } from 'vitest';
import { memoryConfig, memoryDeps } from '../support/memory';
import { buildAndPublishIndex } from '../../functions/core/ingest/memory-index';
import { IndexCache } from '../../functions/core/stored-index/index-cache';
import { readManifest } from '../../functions/core/stored-index/manifest';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { createMemory } from '../../functions/core/use-cases/memories';
import { createSession } from '../../functions/core/use-cases/sessions';
import { sessionSourceId } from '../../functions/core/model';

const deps = memoryDeps(memoryConfig({ KMEM_EMBEDDER: 'none', KMEM_GRAPH_WORD_VECTORS: 'false' }));

describe('publishing an index', () => {
  it('keeps every concurrent build whole and leaves only the current and previous versions and their segments', async () => {
    const accountId = (await createAccount(deps, `publish-${process.pid}-${Date.now()}`)).account.id;
    const memory = await createMemory(deps, accountId, { name: 'm', memoryType: 'vector' });
    const sessions = await Promise.all([0, 1, 2, 3, 4].map(() => createSession(deps, accountId, {})));
    for (const session of sessions) {
      await deps.sessionLinks.create({ accountId, memoryId: memory.id, sessionId: session.id, createdAt: new Date().toISOString() });
    }
    const worker = deps.worker;
    const chunk = (sessionId: string, n: number) => ({
      id: `msg:${sessionId}.${n}`,
      fileId: sessionSourceId(sessionId),
      text: `message ${n} of ${sessionId}`,
      start: 0,
      end: 10,
    });
    await Promise.all(
      sessions.map((session) =>
        buildAndPublishIndex(worker, accountId, memory.id, {
          added: new Map([[sessionSourceId(session.id), [chunk(session.id, 1), chunk(session.id, 2)]]]),
          changes: ({ chunkCount }) => ({ chunkCount }),
        }),
      ),
    );
    const after = await deps.memories.get(accountId, memory.id);
    expect(after?.indexVersion).toBe(5);
    const loaded = await new IndexCache(deps.objects, 2).load(after!);
    expect(loaded?.retrieval.chunks.ids).toHaveLength(10);
    expect(after?.chunkCount).toBe(10);
    const root = `gold/${accountId}/memories/${memory.id}/index/`;
    const manifest = await readManifest(deps.objects, root, after!.indexPrefix!);
    expect(manifest?.segments).toHaveLength(5); // one segment per build, none rewritten
    const folders = new Set((await deps.objects.list(root)).map((key) => key.slice(root.length).split('/')[0] ?? ''));
    const current = after!.indexPrefix!.slice(root.length, -1);
    const named = new Set([current, ...manifest!.segments.map((entry) => entry.id)]);
    expect([...named].every((folder) => folders.has(folder))).toBe(true);
    // beyond the current version and its segments: at most the previous version's folder
    expect([...folders].filter((folder) => !named.has(folder)).length).toBeLessThanOrEqual(1);
  }, 60_000);
});
