/** The contracts of MemoryStore, LinkStore, SessionLinkStore and JobStore. */
import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../../functions/core/errors';
import type { MemoryFileLink } from '../../../functions/core/model';
import { at, file, job, type MakeStores, memory, newId, walkPages } from './records';

const link = (accountId: string, memoryId: string, fileId: string = newId()): MemoryFileLink => ({
  id: newId(),
  accountId,
  memoryId,
  fileId,
  type: 'file',
  ingestedAt: null,
  createdAt: at(0),
  updatedAt: at(0),
});

export function memoryStoreContract(make: MakeStores): void {
  describe('MemoryStore', () => {
    it('lists an account’s memories in creation order, by type, and deletes them', async () => {
      const { memories } = make();
      const accountId = newId();
      const [graph, vector, later] = [memory(accountId, 2, { memoryType: 'graph' }), memory(accountId, 1), memory(accountId, 3)];
      for (const m of [graph, vector, later]) await memories.create(m);
      await expect(memories.create(graph)).rejects.toBeInstanceOf(ConflictError);
      await memories.create(memory(newId(), 0));
      const { forward } = await walkPages((page) => memories.list(accountId, undefined, page), 2);
      expect(forward.flat().map((m) => m.id)).toEqual([vector.id, graph.id, later.id]);
      expect((await memories.list(accountId, 'graph', { limit: 5 })).items.map((m) => m.id)).toEqual([graph.id]);
      expect(await memories.get(accountId, graph.id)).toEqual(graph);
      await memories.delete(accountId, graph.id);
      expect(await memories.get(accountId, graph.id)).toBeUndefined();
    });

    it('updates unless the step is one of those given, and only for the job given', async () => {
      const { memories } = make();
      const accountId = newId();
      const m = memory(accountId, 1);
      await memories.create(m);
      expect(
        await memories.update(accountId, m.id, { step: 'queued', currentJobId: 'j1' }, { unlessStep: ['queued', 'ingesting'] }),
      ).toMatchObject({ step: 'queued' });
      await expect(memories.update(accountId, m.id, { step: 'queued' }, { unlessStep: ['queued', 'ingesting'] })).rejects.toBeInstanceOf(
        ConflictError,
      );
      await expect(memories.update(accountId, m.id, { step: 'ready' }, { currentJobId: 'j2' })).rejects.toBeInstanceOf(ConflictError);
      expect(await memories.update(accountId, m.id, { step: 'ready', currentJobId: null }, { currentJobId: 'j1' })).toMatchObject({
        step: 'ready',
        currentJobId: null,
      });
      expect(await memories.update(accountId, m.id, { name: 'n' }, { currentJobId: null })).toMatchObject({ name: 'n' });
      expect(await memories.update(newId(), m.id, { name: 'x' })).toBeUndefined();
    });

    it('publishes an index version only over the version expected, forgetting the exclusions it built without', async () => {
      const { memories } = make();
      const accountId = newId();
      const m = memory(accountId, 1);
      await memories.create(m);
      await memories.excludeSources(accountId, m.id, [
        { kind: 'file', fileId: 'f1' },
        { kind: 'session', sessionId: 's1' },
        { kind: 'file', fileId: 'f2' },
      ]);
      await memories.includeSources(accountId, m.id, [{ kind: 'file', fileId: 'f2' }]);
      expect((await memories.get(accountId, m.id))?.excludedFileIds.sort()).toEqual(['f1', 'session:s1']);
      const published = await memories.commitIndexVersion(accountId, m.id, {
        expectedVersion: 0,
        changes: { indexVersion: 1, indexPrefix: 'gold/1/' },
        excludedBuilt: ['f1'],
      });
      expect(published).toMatchObject({ indexVersion: 1, indexPrefix: 'gold/1/', excludedFileIds: ['session:s1'] });
      await expect(
        memories.commitIndexVersion(accountId, m.id, { expectedVersion: 0, changes: { indexVersion: 2 }, excludedBuilt: [] }),
      ).rejects.toBeInstanceOf(ConflictError);
      expect(
        await memories.commitIndexVersion(newId(), m.id, { expectedVersion: 1, changes: { indexVersion: 2 }, excludedBuilt: [] }),
      ).toBeUndefined();
    });

    it('records the last webhook try and counts dead events', async () => {
      const { memories } = make();
      const accountId = newId();
      const m = memory(accountId, 1);
      await memories.create(m);
      const status = { eventId: 'e', eventType: 'file.ready', attempts: 3, lastStatus: 500, lastError: 'HTTP 500', at: at(9) };
      await memories.recordWebhookDelivery(accountId, m.id, { ...status, outcome: 'dead' });
      await memories.recordWebhookDelivery(accountId, m.id, { ...status, outcome: 'dead' });
      await memories.recordWebhookDelivery(accountId, m.id, { ...status, outcome: 'delivered', lastStatus: 200, lastError: null });
      expect((await memories.get(accountId, m.id))?.webhookDelivery).toEqual({
        ...status,
        outcome: 'delivered',
        lastStatus: 200,
        lastError: null,
        deadEvents: 2,
      });
      await memories.recordWebhookDelivery(accountId, newId(), { ...status, outcome: 'dead' });
    });
  });

  describe('MemoryRecordReader', () => {
    it('reads a memory and its account’s source version together, as the stores read them apart', async () => {
      const { memories, files, memoryRecords } = make();
      if (!memoryRecords) return; // a store without it: retrieval reads the two apart
      const accountId = newId();
      const m = memory(accountId, 1);
      const read = async (id: string) => {
        const both = memoryRecords.memoryAndSourceVersion(accountId, id);
        return { memory: await both.memory, sourceVersion: await both.sourceVersion };
      };
      expect(await read(m.id)).toEqual({ memory: undefined, sourceVersion: 0 });
      await memories.create(m);
      await files.create(file(accountId, 1));
      await files.create(file(accountId, 2));
      expect(await read(m.id)).toEqual({
        memory: await memories.get(accountId, m.id),
        sourceVersion: await files.sourceVersion(accountId),
      });
      expect((await read(m.id)).sourceVersion).toBeGreaterThan(0);
      await memories.delete(accountId, m.id);
      expect((await read(m.id)).memory).toBeUndefined();
    });
  });
}

export function linkStoreContract(make: MakeStores): void {
  describe('LinkStore', () => {
    it('links a file to a memory once, and lists links both ways', async () => {
      const { links } = make();
      const accountId = newId();
      const [m1, m2, f1, f2] = [newId(), newId(), newId(), newId()];
      await links.create(link(accountId, m1, f1));
      await expect(links.create(link(accountId, m1, f1))).rejects.toBeInstanceOf(ConflictError);
      await links.createMany([link(accountId, m1, f2), link(accountId, m2, f1)]);
      expect((await links.listByMemory(accountId, m1)).map((l) => l.fileId).sort()).toEqual([f1, f2].sort());
      expect((await links.listByFile(accountId, f1)).map((l) => l.memoryId).sort()).toEqual([m1, m2].sort());
      expect([...(await links.getMany(accountId, m1, [f1, newId()])).keys()]).toEqual([f1]);
      expect(await links.listByMemory(newId(), m1)).toEqual([]);
      expect(await links.get(newId(), m1, f1)).toBeUndefined();
    });

    it('marks a file ingested unless the link changed since the ingestion read it', async () => {
      const { links } = make();
      const accountId = newId();
      const l = link(accountId, newId());
      await links.create(l);
      await links.markChanged(accountId, l.memoryId, l.fileId, at(5));
      expect(await links.markIngested(accountId, l.memoryId, l.fileId, at(6), l.updatedAt)).toBe(false);
      expect((await links.get(accountId, l.memoryId, l.fileId))?.ingestedAt).toBeNull();
      expect(await links.markIngested(accountId, l.memoryId, l.fileId, at(7), at(5))).toBe(true);
      expect(await links.get(accountId, l.memoryId, l.fileId)).toMatchObject({ ingestedAt: at(7), updatedAt: at(7) });
      await links.markChanged(accountId, l.memoryId, l.fileId, at(8));
      expect(await links.get(accountId, l.memoryId, l.fileId)).toMatchObject({ ingestedAt: null, updatedAt: at(8) });
      expect(await links.markIngested(accountId, l.memoryId, l.fileId, at(9))).toBe(true);
    });

    it('deletes one link or many', async () => {
      const { links } = make();
      const accountId = newId();
      const m = newId();
      const all = [link(accountId, m), link(accountId, m), link(accountId, m)];
      await links.createMany(all);
      await links.delete(accountId, m, all[0]?.fileId ?? '');
      await links.deleteMany(accountId, all.slice(1, 2));
      expect((await links.listByMemory(accountId, m)).map((l) => l.fileId)).toEqual([all[2]?.fileId]);
      expect((await links.listByFile(accountId, all[0]?.fileId ?? '')).length).toBe(0);
    });
  });
}

export function sessionLinkStoreContract(make: MakeStores): void {
  describe('SessionLinkStore', () => {
    it('links a session to a memory once, lists both ways, and deletes', async () => {
      const { sessionLinks } = make();
      const accountId = newId();
      const [m1, m2, s1, s2] = [newId(), newId(), newId(), newId()];
      const one = { accountId, memoryId: m1, sessionId: s1, createdAt: at(0) };
      await sessionLinks.create(one);
      await expect(sessionLinks.create(one)).rejects.toBeInstanceOf(ConflictError);
      await sessionLinks.create({ ...one, sessionId: s2 });
      await sessionLinks.create({ ...one, memoryId: m2 });
      expect(await sessionLinks.get(accountId, m1, s1)).toEqual(one);
      expect((await sessionLinks.listByMemory(accountId, m1)).map((l) => l.sessionId).sort()).toEqual([s1, s2].sort());
      expect((await sessionLinks.listBySession(accountId, s1)).map((l) => l.memoryId).sort()).toEqual([m1, m2].sort());
      expect(await sessionLinks.listBySession(newId(), s1)).toEqual([]);
      await sessionLinks.delete(accountId, m1, s1);
      expect(await sessionLinks.get(accountId, m1, s1)).toBeUndefined();
      expect((await sessionLinks.listBySession(accountId, s1)).map((l) => l.memoryId)).toEqual([m2]);
    });
  });
}

export function jobStoreContract(make: MakeStores): void {
  describe('JobStore', () => {
    it('keeps a job’s whole file list, however long, and lists a memory’s jobs without it in creation order', async () => {
      const { jobs } = make();
      const accountId = newId();
      const memoryId = newId();
      const big = job(
        accountId,
        memoryId,
        2,
        Array.from({ length: 9_000 }, (_, i) => `file-${i}`),
      );
      const small = job(accountId, memoryId, 1, ['a']);
      await jobs.create(big);
      await jobs.create(small);
      await expect(jobs.create(small)).rejects.toBeInstanceOf(ConflictError);
      await jobs.create(job(accountId, newId(), 0, ['b']));
      expect(await jobs.get(accountId, big.id)).toEqual(big);
      expect(await jobs.get(newId(), big.id)).toBeUndefined();
      const { fileIds: _big, ...bigSummary } = big;
      const { fileIds: _small, ...smallSummary } = small;
      expect(await jobs.listByMemory(accountId, memoryId)).toEqual([smallSummary, bigSummary]);
    });

    it('updates only in the states given, and deletes the job with its file list', async () => {
      const { jobs } = make();
      const accountId = newId();
      const j = job(accountId, newId(), 1, ['a', 'b']);
      await jobs.create(j);
      await jobs.update(accountId, j.id, { state: 'running' }, ['queued']);
      await expect(jobs.update(accountId, j.id, { state: 'running' }, ['queued'])).rejects.toBeInstanceOf(ConflictError);
      await jobs.update(accountId, j.id, { state: 'completed', usedTokens: 40, charge: { a: 30 } });
      expect(await jobs.get(accountId, j.id)).toMatchObject({ state: 'completed', usedTokens: 40, charge: { a: 30 }, fileIds: ['a', 'b'] });
      await jobs.delete(accountId, j.id);
      expect(await jobs.get(accountId, j.id)).toBeUndefined();
      expect(await jobs.listByMemory(accountId, j.memoryId)).toEqual([]);
    });
  });
}
