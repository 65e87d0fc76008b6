/**
 * The storage seam against the real table (dynalite): items as the previous version wrote them still read,
 * a malformed item is a StoredItemError naming the item and the field (never a silently wrong record), and
 * what the repositories write reads back as it was written.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { keys } from '../../functions/adapters/dynamodb/keys';
import { StoredItemError } from '../../functions/core/errors';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { emptyFile } from '../../functions/core/files/file-records';
import { testConfig, testDeps } from '../support/stores';

const deps = testDeps(testConfig({ KMEM_EMBEDDER: 'none' }));
afterAll(() => deps.documentClient.destroy());
const { account } = await createAccount(deps, `stored-items-${randomUUID()}`);
const now = '2026-01-02T03:04:05.000Z';

describe('stored items', () => {
  it('reads a file as the previous version wrote it (wire-cased and always-null fields, no source fields)', async () => {
    const id = randomUUID();
    await deps.table.put({
      ...keys.file(account.id, id),
      kind: 'file',
      id,
      accountId: account.id,
      name: 'a.txt',
      extension: 'txt',
      fileType: 'text',
      category: 'document',
      state: 'ready',
      error: null,
      bronzeKey: 'bronze/a',
      externalURI: null,
      contentType: 'text/plain',
      source: 'upload',
      parentFileId: null,
      memoryID: null,
      jobID: 'job-1',
      originRegion: 'local',
      silverTranscriptKey: 'silver/a',
      silverAudioKey: null,
      goldAudioKey: null,
      goldChunkKey: null,
      goldGraphKey: null,
      aiKey: null,
      length: 12,
      size: 12,
      tokens: 3,
      numSpeakers: null,
      hiddenFilesTotal: 0,
      hiddenFilesCreated: 0,
      hiddenFilesProcessed: 0,
      hiddenFilesIngested: 0,
      createdAt: now,
      updatedAt: now,
    });
    const file = await deps.files.get(account.id, id);
    expect(file).toMatchObject({
      id,
      name: 'a.txt',
      jobId: 'job-1',
      externalUrl: null,
      sourceKey: null,
      contentHash: null,
      validators: null,
      tokens: 3,
    });
    expect(file).not.toHaveProperty('memoryID');
    expect(file).not.toHaveProperty('aiKey');
  });

  it('reads a memory written before counts, failure counts and webhook status existed, and one with them', async () => {
    const id = randomUUID();
    const base = {
      kind: 'memory',
      id,
      accountId: account.id,
      name: 'm',
      memoryType: 'vector',
      ontology: null,
      chunkSize: null,
      chunkOverlap: null,
      webhookUrl: null,
      acceleration: false,
      factExtraction: false,
      step: 'ready',
      adapterRepo: 'none',
      adapterVersion: 1,
      currentJobId: null,
      lastError: null,
      createdAt: now,
      updatedAt: now,
    };
    await deps.table.put({ ...keys.memory(account.id, id), ...base, failedFiles: [{ fileID: 'f1', error: 'no text' }] });
    expect(await deps.memories.get(account.id, id)).toMatchObject({
      description: '',
      indexVersion: 0,
      chunkCount: 0,
      entityCount: 0,
      failedFiles: [{ fileId: 'f1', error: 'no text' }],
      failedFileCount: 1,
      excludedFileIds: [],
      webhookDelivery: null,
    });

    const delivery = { eventId: 'e1', eventType: 'file.ready', outcome: 'dead', attempts: 3, lastStatus: 500, lastError: 'boom', at: now };
    await deps.table.put({
      ...keys.memory(account.id, id),
      ...base,
      excludedFileIds: new Set(['f2']),
      webhookDelivery: delivery,
      webhookDeadEvents: 2,
    });
    expect(await deps.memories.get(account.id, id)).toMatchObject({
      excludedFileIds: ['f2'],
      webhookDelivery: { ...delivery, deadEvents: 2 },
    });
  });

  it('reads a message as stored (wire-cased attributes, with and without a sequence)', async () => {
    const id = randomUUID();
    await deps.table.put({
      ...keys.message(account.id, id),
      kind: 'message',
      id,
      accountId: account.id,
      sessionID: 's1',
      role: 'user',
      content: 'hi',
      customerUserID: 'c1',
      createdAt: now,
      updatedAt: now,
    });
    const message = await deps.messages.get(account.id, id);
    expect(message).toEqual({
      id,
      accountId: account.id,
      sessionId: 's1',
      role: 'user',
      content: 'hi',
      customerUserId: 'c1',
      createdAt: now,
      updatedAt: now,
    });
  });

  it('refuses a malformed item with an error naming the item and the field', async () => {
    const id = randomUUID();
    await deps.table.put({ ...keys.file(account.id, id), ...storedFile(id), state: 'exploded', size: '12' });
    const read = deps.files.get(account.id, id);
    await expect(read).rejects.toBeInstanceOf(StoredItemError);
    await expect(read).rejects.toThrow(new RegExp(`file item A#${account.id}#FILE#${id} / FILE is malformed: state: .*; size: `));

    const memoryId = randomUUID();
    await deps.table.put({ ...keys.memory(account.id, memoryId), kind: 'memory', id: memoryId, accountId: account.id, name: 'm' });
    await expect(deps.memories.get(account.id, memoryId)).rejects.toThrow(/memory item .* is malformed: memoryType: /);
  });

  it('writes what it reads back, with the stored attribute names of the previous version', async () => {
    const id = randomUUID();
    const file = { ...emptyFile(account.id, id, now, 'local'), name: 'b.txt', jobId: 'job-2', externalUrl: 'https://example.com/b' };
    await deps.files.create(file);
    expect(await deps.files.get(account.id, id)).toEqual(file);
    const item = await deps.table.get(keys.file(account.id, id));
    expect(item).toMatchObject({ kind: 'file', jobID: 'job-2', externalURI: 'https://example.com/b' });
    expect(item).not.toHaveProperty('jobId');

    expect(await deps.files.update(account.id, id, { jobId: null, externalUrl: null })).toMatchObject({ jobId: null, externalUrl: null });
    expect(await deps.table.get(keys.file(account.id, id))).toMatchObject({ jobID: null, externalURI: null });
  });
});

function storedFile(id: string) {
  const { jobId, externalUrl, ...file } = emptyFile(account.id, id, now, 'local');
  return { ...file, kind: 'file', jobID: jobId, externalURI: externalUrl };
}
