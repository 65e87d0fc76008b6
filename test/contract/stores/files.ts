/** The contracts of UploadStore, FileStore and ImportStore. */
import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../../functions/core/errors';
import type { Upload } from '../../../functions/core/model';
import type { FileImport } from '../../../functions/core/files/bulk-import';
import { at, file, type MakeStores, newId, walkPages } from './records';

const upload = (accountId: string): Upload => ({
  key: `bronze/${newId()}`,
  accountId,
  name: 'a.txt',
  size: 3,
  contentType: 'text/plain',
  fileId: null,
  createdAt: at(0),
});

export function uploadStoreContract(make: MakeStores): void {
  describe('UploadStore', () => {
    it('lets one file claim an upload (again, idempotently), refuses another, and frees it only for its claimant', async () => {
      const { uploads } = make();
      const accountId = newId();
      const u = upload(accountId);
      await uploads.create(u);
      const [mine, theirs] = [newId(), newId()];
      expect(await uploads.claim(accountId, u.key, mine)).toMatchObject({ key: u.key, fileId: mine });
      expect(await uploads.claim(accountId, u.key, mine)).toMatchObject({ fileId: mine });
      await expect(uploads.claim(accountId, u.key, theirs)).rejects.toBeInstanceOf(ConflictError);
      await expect(uploads.release(accountId, u.key, theirs)).rejects.toBeInstanceOf(ConflictError);
      await uploads.release(accountId, u.key, mine);
      expect(await uploads.claim(accountId, u.key, theirs)).toMatchObject({ fileId: theirs });
      expect(await uploads.claim(newId(), u.key, mine)).toBeUndefined();
      await uploads.delete(accountId, u.key);
      expect(await uploads.claim(accountId, u.key, theirs)).toBeUndefined();
    });
  });
}

export function fileStoreContract(make: MakeStores): void {
  describe('FileStore', () => {
    it('claims a ready file for one re-sync at a time, past its interval, until the claim ends or goes stale', async () => {
      const { files } = make();
      const accountId = newId();
      const ready = file(accountId, 1, { state: 'ready' });
      const pending = file(accountId, 2);
      await files.createMany([ready, pending]);
      const claimAt = (seconds: number, intervalSeconds = 60) => ({
        now: at(seconds),
        staleBefore: at(seconds - 900),
        intervalBefore: at(seconds - intervalSeconds),
      });
      expect(await files.claimResync(accountId, ready.id, claimAt(1000))).toEqual({ claimed: true });
      expect(await files.claimResync(accountId, ready.id, claimAt(1010))).toEqual({
        claimed: false,
        claimedAt: at(1000),
        lastResyncAt: at(1000),
      });
      await files.endResync(accountId, ready.id);
      expect(await files.claimResync(accountId, ready.id, claimAt(1030))).toEqual({
        claimed: false,
        claimedAt: null,
        lastResyncAt: at(1000),
      });
      expect(await files.claimResync(accountId, ready.id, claimAt(1070))).toEqual({ claimed: true });
      // a claim its worker never ended holds until it is stale
      expect(await files.claimResync(accountId, ready.id, claimAt(1900))).toMatchObject({ claimed: false, claimedAt: at(1070) });
      expect(await files.claimResync(accountId, ready.id, claimAt(1971))).toEqual({ claimed: true });
      expect(await files.get(accountId, ready.id)).toEqual(ready);
      expect(await files.claimResync(accountId, pending.id, claimAt(3000))).toMatchObject({ claimed: false });
      expect(await files.claimResync(newId(), ready.id, claimAt(3000))).toEqual({ claimed: false, claimedAt: null, lastResyncAt: null });
    });

    it('creates files once, reads them by id and in bulk, within their account only', async () => {
      const { files } = make();
      const [a, b] = [newId(), newId()];
      const one = file(a, 1);
      const many = [file(a, 2), file(a, 3)];
      await files.create(one);
      await expect(files.create(one)).rejects.toBeInstanceOf(ConflictError);
      await files.createMany(many);
      expect(await files.get(a, one.id)).toEqual(one);
      expect(await files.get(b, one.id)).toBeUndefined();
      const found = await files.getMany(a, [one.id, many[1]?.id ?? '', newId(), one.id]);
      expect([...found.keys()].sort()).toEqual([one.id, many[1]?.id].sort());
      expect((await files.getMany(b, [one.id])).size).toBe(0);
    });

    it('updates under its conditions: the states given and the content hash given, else ConflictError', async () => {
      const { files } = make();
      const accountId = newId();
      const f = file(accountId, 1, { contentHash: 'h1' });
      await files.create(f);
      expect(await files.update(accountId, f.id, { state: 'processing' }, ['pending'])).toMatchObject({
        state: 'processing',
        name: 'a.txt',
      });
      await expect(files.update(accountId, f.id, { state: 'ready' }, ['pending'])).rejects.toBeInstanceOf(ConflictError);
      await expect(files.update(accountId, f.id, { state: 'ready' }, undefined, 'h2')).rejects.toBeInstanceOf(ConflictError);
      expect(await files.update(accountId, f.id, { state: 'ready', tokens: 7 }, ['processing'], 'h1')).toMatchObject({
        state: 'ready',
        tokens: 7,
      });
      expect(await files.update(accountId, newId(), { state: 'ready' })).toBeUndefined();
      expect(await files.update(newId(), f.id, { state: 'ready' })).toBeUndefined();
      expect((await files.get(accountId, f.id))?.state).toBe('ready');
    });

    it('lists top-level files in creation order by category, children under their parent only', async () => {
      const { files } = make();
      const accountId = newId();
      const parent = file(accountId, 1, { fileType: 'sitemap', category: 'web' });
      const doc = file(accountId, 3);
      const image = file(accountId, 2, { fileType: 'image', category: 'other' });
      const children = [file(accountId, 5, { parentFileId: parent.id }), file(accountId, 4, { parentFileId: parent.id })];
      for (const f of [doc, parent, image, ...children]) await files.create(f);
      const { forward } = await walkPages((page) => files.list(accountId, undefined, page), 2);
      expect(forward.flat().map((f) => f.id)).toEqual([parent.id, image.id, doc.id]);
      expect((await files.list(accountId, 'other', { limit: 10 })).items.map((f) => f.id)).toEqual([image.id]);
      expect((await files.listChildren(accountId, parent.id)).map((f) => f.id)).toEqual([children[1]?.id, children[0]?.id]);
      expect(await files.listChildren(newId(), parent.id)).toEqual([]);
    });

    it('finds top-level files by source key and prefix', async () => {
      const { files } = make();
      const accountId = newId();
      const b = file(accountId, 1, { sourceKey: 'import/x/b.txt' });
      const a = file(accountId, 2, { sourceKey: 'import/x/a.txt' });
      const other = file(accountId, 3, { sourceKey: 'import/y/a.txt' });
      for (const f of [b, a, other]) await files.create(f);
      await files.create(file(newId(), 1, { sourceKey: 'import/x/c.txt' }));
      expect((await files.findBySource(accountId, 'import/x/a.txt'))?.id).toBe(a.id);
      expect(await files.findBySource(accountId, 'import/x/z.txt')).toBeUndefined();
      expect((await files.listBySourcePrefix(accountId, 'import/x/')).map((f) => f.id)).toEqual([a.id, b.id]);
    });

    it('counts hidden files atomically, and deletes one or many', async () => {
      const { files } = make();
      const accountId = newId();
      const [f, g, h] = [file(accountId, 1), file(accountId, 2), file(accountId, 3)];
      for (const x of [f, g, h]) await files.create(x);
      await Promise.all(Array.from({ length: 5 }, () => files.increment(accountId, f.id, 'hiddenFilesProcessed', 2)));
      expect((await files.get(accountId, f.id))?.hiddenFilesProcessed).toBe(10);
      expect(await files.increment(accountId, newId(), 'hiddenFilesCreated', 1)).toBeUndefined();
      await files.delete(accountId, f.id);
      await files.deleteMany(accountId, [g.id, newId()]);
      expect(await files.get(accountId, f.id)).toBeUndefined();
      expect(await files.get(accountId, g.id)).toBeUndefined();
      expect(await files.get(accountId, h.id)).toBeDefined();
    });

    it('raises the source version on every create, delete and change of fileType, sourceKey or metadata, in its account only', async () => {
      const { files } = make();
      const [accountId, otherId] = [newId(), newId()];
      const version = () => files.sourceVersion(accountId);
      expect(await version()).toBe(0);
      const f = file(accountId, 1);
      await files.create(f);
      const afterCreate = await version();
      expect(afterCreate).toBeGreaterThan(0);
      await files.createMany([file(accountId, 2), file(accountId, 3)]);
      const afterMany = await version();
      expect(afterMany).toBeGreaterThan(afterCreate);
      // fields no filter reads leave it
      await files.update(accountId, f.id, { state: 'ready', tokens: 12 });
      await files.increment(accountId, f.id, 'hiddenFilesCreated', 1);
      expect(await version()).toBe(afterMany);
      let last = afterMany;
      for (const changes of [
        { metadata: [{ key: 'lang', value: 'de' }] },
        { fileType: 'document' as const },
        { sourceKey: 's3://b/a.txt' },
      ]) {
        await files.update(accountId, f.id, changes);
        const now = await version();
        expect(now).toBeGreaterThan(last);
        last = now;
      }
      // a refused update writes nothing and leaves it
      await expect(files.update(accountId, f.id, { metadata: [] }, ['failed'])).rejects.toBeInstanceOf(ConflictError);
      expect(await version()).toBe(last);
      await files.delete(accountId, f.id);
      expect(await version()).toBeGreaterThan(last);
      last = await version();
      await files.deleteMany(accountId, [newId()]);
      expect(await version()).toBeGreaterThan(last);
      // concurrent writes each count
      last = await version();
      await Promise.all(Array.from({ length: 5 }, (_, i) => files.create(file(accountId, 10 + i))));
      expect(await version()).toBe(last + 5);
      expect(await files.sourceVersion(otherId)).toBe(0);
    });

    it('sweeps every account’s ready top-level web sources', async () => {
      const { files } = make();
      const [a, b] = [newId(), newId()];
      const site = file(a, 1, { fileType: 'website', category: 'web', state: 'ready' });
      const map = file(b, 1, { fileType: 'sitemap', category: 'web', state: 'ready' });
      const pending = file(a, 2, { fileType: 'website', category: 'web', state: 'pending' });
      const page = file(a, 3, { fileType: 'website', category: 'web', state: 'ready', parentFileId: map.id });
      const doc = file(a, 4, { state: 'ready' });
      for (const f of [site, map, pending, page, doc]) await files.create(f);
      const swept: string[] = [];
      for await (const batch of files.readyWebSources()) swept.push(...batch.map((f) => `${f.accountId}/${f.id}`));
      expect(swept).toEqual(expect.arrayContaining([`${a}/${site.id}`, `${b}/${map.id}`]));
      for (const f of [pending, page, doc]) expect(swept).not.toContain(`${f.accountId}/${f.id}`);
    });
  });
}

export function importStoreContract(make: MakeStores): void {
  describe('ImportStore', () => {
    it('creates an import once and updates it in its account only', async () => {
      const { imports } = make();
      const accountId = newId();
      const fileImport: FileImport = {
        id: newId(),
        accountId,
        source: { kind: 's3', bucket: 'b', prefix: 'p/' },
        memoryId: null,
        fileType: null,
        prune: false,
        metadata: [{ key: 'team', value: 'docs' }],
        state: 'running',
        ...{ total: 3, created: 0, updated: 0, unchanged: 0, deleted: 0, failed: 0, errors: [], position: 0, refreshMemoryIds: [] },
        createdAt: at(0),
        updatedAt: at(0),
      };
      await imports.create(fileImport);
      await expect(imports.create(fileImport)).rejects.toBeInstanceOf(ConflictError);
      await imports.update(accountId, fileImport.id, { position: 2, created: 2, errors: [{ sourceKey: 'p/x', error: 'bad' }] });
      await imports.update(newId(), fileImport.id, { state: 'failed' });
      expect(await imports.get(accountId, fileImport.id)).toEqual({
        ...fileImport,
        position: 2,
        created: 2,
        errors: [{ sourceKey: 'p/x', error: 'bad' }],
      });
      expect(await imports.get(newId(), fileImport.id)).toBeUndefined();
    });
  });
}
