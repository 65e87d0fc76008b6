/**
 * Concurrent builds of one memory (several sessions synced at once, say) each write their own folder and
 * publish with a conditional write: the published index is always one whole build, and the folders of
 * builds that lost or are superseded are deleted.
 */
import { describe, expect, it } from 'vitest';
import { memoryConfig, memoryDeps } from '../support/memory';
import { buildAndPublishIndex } from '../../functions/core/ingest/memory-index';
import { decodeChunks } from '../../functions/core/stored-index/chunks';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { createMemory } from '../../functions/core/use-cases/memories';
import { createSession } from '../../functions/core/use-cases/sessions';
import { sessionSourceId } from '../../functions/core/model';

const deps = memoryDeps(memoryConfig({ KMEM_EMBEDDER: 'none', KMEM_GRAPH_WORD_VECTORS: 'false' }));

describe('publishing an index', () => {
  it('keeps every concurrent build whole and leaves only the current and previous builds', async () => {
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
    const chunks = decodeChunks(await deps.objects.get(`${after?.indexPrefix}chunks.json`));
    expect(chunks).toHaveLength(10);
    expect(after?.chunkCount).toBe(10);
    const root = `gold/${accountId}/memories/${memory.id}/index/`;
    const builds = new Set((await deps.objects.list(root)).map((key) => key.slice(root.length).split('/')[0]));
    expect(builds.size).toBeLessThanOrEqual(2);
    expect([...builds].some((build) => `${root}${build}/` === after?.indexPrefix)).toBe(true);
  }, 60_000);
});
