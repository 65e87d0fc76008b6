/** POST /files/import over HTTP: archives of each format and an S3 prefix of the local store, upserts, prune, limits. */
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setImportSources } from '../../functions/core/use-cases/import-sources';
import { del, env, get, listAll, post, upload, waitFor, type Json } from '../support/api';
import { type Members, makeTar, makeTarGz, makeTraversalZip, makeZip } from '../support/archives';
import { TEST_IMPORT_BUCKET, TEST_MISSING_BUCKET } from '../support/imports';
import { testDeps } from '../support/stores';

const stores = testDeps();
afterAll(() => stores.documentClient.destroy());

async function importArchive(name: string, bytes: Uint8Array, extra: Json = {}): Promise<Json> {
  const uploaded = await upload(name, bytes, undefined, 'application/octet-stream');
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
  return runImport({ archiveKey: uploaded.body.data.key, ...extra });
}

async function runImport(body: Json): Promise<Json> {
  const started = await post('/files/import', body);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const id = started.body.data.importID as string;
  const done = await waitFor(`/files/import/${id}`, (b) => b.data?.state !== 'running', undefined, 30_000);
  return done.data as Json;
}

/**
 * Account A's files whose source starts with `prefix`, read whole (the list has no source). Other test files
 * use account A at the same time: a file one of them deletes between the listing and its read answers 404
 * and is left out, as gone; what this file imported it checks by name and count, so one of its own gone
 * still fails the test.
 */
async function filesOf(prefix: string): Promise<Json[]> {
  const all = await listAll('/files/list?limit=100', 'files');
  const reads = await Promise.all(all.map((f) => get(`/files/get/${f.id}`)));
  for (const read of reads) expect([200, 404], JSON.stringify(read.body)).toContain(read.status);
  const details = reads.filter((read) => read.status === 200).map((read) => read.body.data as Json);
  return details.filter((f) => String(f.sourceKey ?? '').startsWith(prefix));
}

const MEMBERS: Members = {
  'guide/kettles.txt': 'An electric kettle boils water by heating a metal coil. Descale it monthly.',
  'guide/tyres.md': '# Tyres\n\nTo fix a flat bicycle tyre, find the puncture and patch the inner tube.',
  'volcanoes.txt': 'Volcanoes erupt when molten rock rises through cracks in the crust.',
};

describe('bulk import from archives', () => {
  for (const [name, make] of [
    ['zip', makeZip],
    ['tar', makeTar],
    ['tar.gz', makeTarGz],
  ] as const) {
    it(`imports every member of a .${name} as an ordinary ready file`, async () => {
      const archive = `corpus-${name}-${Date.now()}.${name}`;
      const result = await importArchive(archive, await make(MEMBERS));
      expect(result).toMatchObject({
        state: 'completed',
        total: 3,
        created: 3,
        updated: 0,
        unchanged: 0,
        deleted: 0,
        failed: 0,
        errors: [],
      });
      const files = await filesOf(`archive:${archive}/`);
      expect(files.map((f) => f.sourceKey).sort()).toEqual(
        Object.keys(MEMBERS)
          .map((p) => `archive:${archive}/${p}`)
          .sort(),
      );
      const kettles = files.find((f) => f.name === 'kettles.txt');
      expect(kettles).toMatchObject({
        state: 'ready',
        fileType: 'text',
        source: 'import',
        size: Buffer.byteLength(MEMBERS['guide/kettles.txt'] as string),
      });
      expect(kettles?.content).toContain('electric kettle');
      expect((await del(`/files/delete/${kettles?.id}`)).status).toBe(200);
      expect((await get(`/files/get/${kettles?.id}`)).status).toBe(404);
    });
  }

  it('upserts on a second import of the same archive and prunes what is gone', async () => {
    const archive = `kb-${Date.now()}.zip`;
    const memory = (await post('/memories/create', { name: 'kb', memoryType: 'vector' })).body.data as Json;
    const first = await importArchive(archive, await makeZip(MEMBERS), { memoryID: memory.id });
    expect(first).toMatchObject({ state: 'completed', created: 3 });
    await waitFor(`/memories/get/${memory.id}`, (b) => b.data?.step === 'ready' && b.data?.fileCount === 3);

    const changed = await makeZip({
      'guide/kettles.txt': MEMBERS['guide/kettles.txt'] as string,
      'guide/tyres.md': '# Tyres\n\nTubeless tyres seal small punctures themselves with liquid sealant.',
      'glaciers.txt': 'Glaciers carve valleys as compacted snow slowly flows downhill.',
    });
    const second = await importArchive(archive, changed, { memoryID: memory.id, prune: true });
    expect(second).toMatchObject({ state: 'completed', total: 3, created: 1, updated: 1, unchanged: 1, deleted: 1, failed: 0 });
    const files = await filesOf(`archive:${archive}/`);
    expect(files.map((f) => f.name).sort()).toEqual(['glaciers.txt', 'kettles.txt', 'tyres.md']);

    const ask = (q: string) => get(`/memory/?memoryID=${memory.id}&query=${encodeURIComponent(q)}&topK=10`);
    await waitFor(`/memories/get/${memory.id}`, (b) => b.data?.step === 'ready' && b.data?.fileCount === 3);
    const deadline = Date.now() + 20_000;
    let hits = '';
    while (Date.now() < deadline) {
      hits = JSON.stringify((await ask('tyres punctures glaciers volcanoes')).body.payload);
      if (hits.includes('Tubeless') && hits.includes('Glaciers')) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(hits).toContain('Tubeless');
    expect(hits).toContain('Glaciers');
    expect(hits).not.toContain('inner tube');
    expect(hits).not.toContain('Volcanoes');

    // the files the import knows, the unchanged ones too, go into a memory that had none of them
    const other = (await post('/memories/create', { name: 'kb2', memoryType: 'vector' })).body.data as Json;
    const third = await importArchive(archive, changed, { memoryID: other.id, prune: true });
    expect(third).toMatchObject({ state: 'completed', created: 0, unchanged: 3, deleted: 0 });
    await waitFor(`/memories/get/${other.id}`, (b) => b.data?.step === 'ready' && b.data?.fileCount === 3);
  });

  it('refuses a zip bomb, a member leaving the archive and too many members, with clear errors', async () => {
    const bomb = await importArchive(`bomb-${Date.now()}.zip`, await makeZip({ 'zeros.bin': new Uint8Array(8 << 20) }));
    expect(bomb).toMatchObject({ state: 'failed', created: 0 });
    expect(bomb.errors[0].error).toMatch(/zeros\.bin' decompresses more than 100 times its compressed size/);
    const escape = await importArchive(`escape-${Date.now()}.zip`, await makeTraversalZip());
    expect(escape).toMatchObject({ state: 'failed', created: 0 });
    expect(escape.errors[0].error).toMatch(/\.\.\/evil\.txt/);
    const tarEscape = await importArchive(`escape-${Date.now()}.tar`, await makeTar({ 'a.txt': 'a', '../../etc/cron.d/x': 'x' }));
    expect(tarEscape.errors[0].error).toMatch(/member path '\.\.\/\.\.\/etc\/cron\.d\/x' leaves the archive/);
    const many = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`m${i}.txt`, `member ${i}`]));
    const crowded = await importArchive(`crowded-${Date.now()}.tar.gz`, await makeTarGz(many));
    expect(crowded).toMatchObject({ state: 'failed', created: 0 });
    expect(crowded.errors[0].error).toMatch(/more than 1000 members/);
    expect(await filesOf('archive:crowded-')).toEqual([]);
  });

  it('refuses a tar in which a member path appears twice, creating no file', async () => {
    const archive = `dup-${Date.now()}.tar`;
    const twice = await makeTar([
      ['same.txt', 'The first same.txt.'],
      ['same.txt', 'The second same.txt.'],
    ]);
    const result = await importArchive(archive, twice);
    expect(result).toMatchObject({ state: 'failed', created: 0 });
    expect(result.errors[0].error).toMatch(/member path 'same\.txt' appears twice/);
    expect(await filesOf(`archive:${archive}/`)).toEqual([]);
  });

  it('answers 400 naming the field for bad requests', async () => {
    const notMine = await post('/files/import', { archiveKey: 'bronze/x/y/z.zip' });
    expect(notMine).toMatchObject({ status: 400, body: { status: 'bad_request' } });
    expect(notMine.body.error).toMatch(/^archiveKey: /);
    const both = await post('/files/import', { archiveKey: 'k', s3: { bucket: 'abc', prefix: '' } });
    expect(both.body.error).toMatch(/^archiveKey: give either archiveKey or s3/);
    const text = await upload('notes.txt', 'plain text');
    const notArchive = await post('/files/import', { archiveKey: text.body.data.key });
    expect(notArchive.body.error).toMatch(/^archiveKey: 'notes.txt' is not a \.zip, \.tar or \.tar\.gz archive/);
    const web = await post('/files/import', { s3: { bucket: 'abc', prefix: '' }, fileType: 'website' });
    expect(web.body.error).toMatch(/^fileType: /);
    expect((await get('/files/import/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('bulk import from an S3 prefix', () => {
  const bucket = TEST_IMPORT_BUCKET;
  beforeAll(async () => {
    await stores.s3.send(new CreateBucketCommand({ Bucket: bucket }));
    // as the operator's `kmem accounts import-sources tenant-a kmem-test-imports/corpus/ kmem-test-missing` does
    await setImportSources(stores, 'tenant-a', [`${bucket}/corpus/`, TEST_MISSING_BUCKET]);
  });

  it('imports the objects under a prefix of a bucket of the local store', async () => {
    for (const [key, body] of Object.entries({ ...MEMBERS, 'other/skip.txt': 'not under the prefix' })) {
      await stores.s3.send(new PutObjectCommand({ Bucket: bucket, Key: `corpus/${key}`.replace('corpus/other', 'other'), Body: body }));
    }
    const result = await runImport({ s3: { bucket, prefix: 'corpus/' } });
    expect(result).toMatchObject({ state: 'completed', total: 3, created: 3, failed: 0 });
    const files = await filesOf(`s3://${bucket}/`);
    expect(files.map((f) => f.sourceKey).sort()).toEqual(
      Object.keys(MEMBERS)
        .map((k) => `s3://${bucket}/corpus/${k}`)
        .sort(),
    );
    expect(files.every((f) => f.state === 'ready')).toBe(true);
    const again = await runImport({ s3: { bucket, prefix: 'corpus/' } });
    expect(again).toMatchObject({ state: 'completed', total: 3, created: 0, unchanged: 3 });
    const missing = await runImport({ s3: { bucket: TEST_MISSING_BUCKET, prefix: '' } });
    expect(missing).toMatchObject({ state: 'failed' });
    expect(missing.errors[0].error).toMatch(/cannot be read: NoSuchBucket/);
  });

  it("refuses a prefix the account was not given, another account's prefix, and the artefact bucket", async () => {
    const keyB = env().keyB;
    const others = await post('/files/import', { s3: { bucket, prefix: 'corpus/' } }, keyB);
    expect(others).toMatchObject({ status: 400, body: { status: 'bad_request' } });
    expect(others.body.error).toMatch(/^s3\.prefix: 'kmem-test-imports\/corpus\/' is not under one of the account's import sources/);
    const wider = await post('/files/import', { s3: { bucket, prefix: '' } });
    expect(wider.body.error).toMatch(/^s3\.prefix: 'kmem-test-imports\/' is not under one of the account's import sources/);
    const sideways = await post('/files/import', { s3: { bucket, prefix: 'corpusx/' } });
    expect(sideways.status).toBe(400);
    const artefacts = await post('/files/import', { s3: { bucket: 'kmem-artefacts', prefix: 'bronze/' } }, keyB);
    expect(artefacts).toMatchObject({ status: 400, body: { status: 'bad_request' } });
    expect(artefacts.body.error).toMatch(
      /^s3\.bucket: 'kmem-artefacts' is the service's own artefact bucket, which is never an import source/,
    );
    const under = await runImport({ s3: { bucket, prefix: 'corpus/guide/' } }); // under its source: allowed
    expect(under).toMatchObject({ state: 'completed', total: 2 });
  });
});

describe('bulk import from a presigned upload', () => {
  it('imports an archive PUT to an upload-url address', async () => {
    const archive = `presigned-${Date.now()}.zip`;
    const bytes = await makeZip(MEMBERS);
    const asked = await post('/files/upload-url', { name: archive, contentType: 'application/zip', size: bytes.length });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    const { key, uploadUrl } = asked.body.data;
    const early = await post('/files/import', { archiveKey: key });
    expect(early.body.error).toBe('archiveKey: nothing has been uploaded to this key yet');
    const put = await fetch(uploadUrl, { method: 'PUT', body: bytes, headers: { 'content-type': 'application/zip' } });
    expect(put.status).toBe(200);
    const result = await runImport({ archiveKey: key });
    expect(result).toMatchObject({ state: 'completed', total: 3, created: 3, failed: 0 });
    expect((await filesOf(`archive:${archive}/`)).map((f) => f.name).sort()).toEqual(['kettles.txt', 'tyres.md', 'volcanoes.txt']);
    const again = await post('/files/import', { archiveKey: key });
    expect(again.body.error).toMatch(/^archiveKey: is already used by a file or another import/);
  });
});
