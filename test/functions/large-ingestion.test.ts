/**
 * Ingestions larger than one DynamoDB item (400 KB) can describe, against the test runtime's stores: a
 * job's file list of any length, and an ingestion of a thousand broken files, which the memory lists in
 * part and counts in full.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapConcurrently } from '../../functions/core/concurrency';
import type { Account, IngestionJob } from '../../functions/core/model';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { emptyFile } from '../../functions/core/files/file-records';
import { startIngestion } from '../../functions/core/use-cases/ingestion';
import { createMemory } from '../../functions/core/use-cases/memories';
import { FAILED_FILES_LISTED } from '../../functions/core/ingest/ingest-memory';
import { keys } from '../../functions/adapters/dynamodb/keys';
import { drainQueue } from '../support/drain-queue';
import { testDeps } from '../support/stores';

const deps = testDeps();
let account: Account;

beforeAll(async () => {
  account = (await createAccount(deps, `large-${process.pid}-${Date.now()}`)).account;
});
afterAll(() => deps.documentClient.destroy());

function job(fileIds: string[]): IngestionJob {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    accountId: account.id,
    memoryId: randomUUID(),
    fileIds,
    reservedTokens: 10,
    usedTokens: 0,
    state: 'queued',
    reconciled: false,
    createdAt: now,
    updatedAt: now,
  };
}

describe('a job file list', () => {
  it('keeps any number of files, in order, and deletes with its job', async () => {
    const fileIds = Array.from({ length: 12_001 }, () => randomUUID()); // about 440 KB of ids
    const recorded = job(fileIds);
    await deps.jobs.create(recorded);

    expect(await deps.jobs.get(account.id, recorded.id)).toEqual(recorded);
    const [listed] = await deps.jobs.listByMemory(account.id, recorded.memoryId);
    expect(listed).toMatchObject({ id: recorded.id, state: 'queued' });
    expect(listed).not.toHaveProperty('fileIds');
    await deps.jobs.update(account.id, recorded.id, { state: 'completed' });
    expect((await deps.jobs.get(account.id, recorded.id))?.fileIds).toEqual(fileIds);

    await deps.jobs.delete(account.id, recorded.id);
    expect(await deps.jobs.get(account.id, recorded.id)).toBeUndefined();
    expect(await deps.table.queryAll(keys.job(account.id, recorded.id).pk)).toEqual([]);
  });

  it('reads a job recorded with its file list inline', async () => {
    const recorded = job([randomUUID(), randomUUID()]);
    await deps.table.put({ ...keys.job(account.id, recorded.id), kind: 'job', ...recorded });
    expect(await deps.jobs.get(account.id, recorded.id)).toEqual(recorded);
  });
});

describe('an ingestion of many broken files', () => {
  it('publishes, lists the first failures with short reasons and counts them all', async () => {
    const broken = 1_300; // listed in full with these reasons, about 450 KB: more than the memory item can hold
    const reason = `the PDF is damaged: ${'x'.repeat(400)}`;
    const memory = await createMemory(deps, account.id, { name: 'broken', memoryType: 'vector' });
    const now = new Date().toISOString();
    const files = Array.from({ length: broken }, (_, i) => ({
      ...emptyFile(account.id, randomUUID(), now, 'local'),
      name: `broken-${i}.pdf`,
      fileType: 'document' as const,
      category: 'document' as const,
      state: 'failed' as const,
      error: reason,
    }));
    await mapConcurrently(files, 16, async (file) => {
      await deps.files.create(file);
      await deps.links.create({
        id: randomUUID(),
        accountId: account.id,
        memoryId: memory.id,
        fileId: file.id,
        type: 'file',
        ingestedAt: null,
        createdAt: now,
        updatedAt: now,
      });
    });

    const started = await startIngestion(deps, account.id, memory.id);
    expect(started.job.fileIds).toHaveLength(broken);
    await drainQueue(deps);

    const after = await deps.memories.get(account.id, memory.id);
    expect(after).toMatchObject({ step: 'failed', failedFileCount: broken });
    expect(after?.failedFiles).toHaveLength(FAILED_FILES_LISTED);
    expect(after?.failedFiles.every((failed) => failed.error.length <= 300 && reason.startsWith(failed.error))).toBe(true);
    expect((await deps.files.get(account.id, files[0]?.id ?? ''))?.error).toBe(reason);
  }, 60_000);
});
