/**
 * An S3 re-import reads only the objects whose ETag moved: the worker runs the import against the test
 * runtime's S3 store through the real reader, whose bucket reads are observed on their way (each read
 * passes through to the real store).
 */
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, expect, it } from 'vitest';
import { SourceImportReader } from '../../functions/adapters/content/import-reader';
import { S3ObjectStore } from '../../functions/adapters/s3/object-store';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { setImportSources } from '../../functions/core/use-cases/import-sources';
import { getImport, startImport } from '../../functions/core/use-cases/imports';
import { runWork } from '../../functions/worker/dispatch';
import { testConfig, testDeps } from '../support/stores';

const bucket = `etags-${Date.now()}`;
const deps = testDeps(testConfig({ KMEM_IMPORT_BUCKETS: bucket })); // S3 imports read no bucket unless told
afterAll(() => deps.documentClient.destroy());

const reads: string[] = [];
const heads: string[] = [];
const listings: string[] = [];
const observedBucket = (name: string) => {
  const store = new S3ObjectStore(deps.s3, name);
  return {
    listSized: (prefix: string) => (listings.push(prefix), store.listSized(prefix)),
    getWithMetadata: (key: string) => (reads.push(key), store.getWithMetadata(key)),
    userMetadata: (key: string) => (heads.push(key), store.userMetadata(key)),
  };
};
const worker = { ...deps.worker, importReader: new SourceImportReader(deps.objects, observedBucket, deps.config.imports) };

async function importPrefix(accountId: string) {
  const started = await startImport(deps, accountId, { s3: { bucket, prefix: 'docs/' } });
  for (let batch = await deps.localQueue.receive(10, 60); batch.length; batch = await deps.localQueue.receive(10, 60)) {
    for (const message of batch) {
      await runWork(worker, JSON.parse(message.body), { attempt: 1, workId: message.messageId });
      await deps.localQueue.delete(message.receiptHandle);
    }
  }
  return getImport(deps, accountId, started.id);
}

it('reads only the changed object on a re-import, and counts the rest unchanged, listing the prefix once an import', async () => {
  const name = `etags-${process.pid}-${Date.now()}`;
  const accountId = (await createAccount(deps, name)).account.id;
  await setImportSources(deps, name, [`${bucket}/docs/`]);
  await deps.s3.send(new CreateBucketCommand({ Bucket: bucket }));
  const put = (key: string, body: string) => deps.s3.send(new PutObjectCommand({ Bucket: bucket, Key: `docs/${key}`, Body: body }));
  await put('a.txt', 'Hedgehogs hibernate through the winter.');
  await put('b.txt', 'Swifts sleep while flying.');
  await put('c.txt', 'Moles dig tunnels at dawn.');
  expect(await importPrefix(accountId)).toMatchObject({ state: 'completed', created: 3 });
  expect(reads.sort()).toEqual(['docs/a.txt', 'docs/b.txt', 'docs/c.txt']);
  expect(listings).toEqual(['docs/']); // the members walk the survey's listing

  reads.length = 0;
  await put('b.txt', 'Swifts sleep, eat and mate while flying.');
  expect(await importPrefix(accountId)).toMatchObject({ state: 'completed', created: 0, updated: 1, unchanged: 2 });
  expect(reads).toEqual(['docs/b.txt']);
  const files = await deps.files.listBySourcePrefix(accountId, `s3://${bucket}/docs/`);
  const swifts = files.find((file) => file.name === 'b.txt');
  expect(Buffer.from((await deps.objects.get(swifts?.silverTranscriptKey ?? '')) ?? []).toString('utf8')).toContain('eat and mate');
});

it("gives each object's file the import's metadata with the object's own user metadata on top, and a re-import replaces it", async () => {
  const name = `meta-${process.pid}-${Date.now()}`;
  const accountId = (await createAccount(deps, name)).account.id;
  await setImportSources(deps, name, [`${bucket}/meta/`]);
  await deps.s3.send(new CreateBucketCommand({ Bucket: bucket })).catch(() => undefined);
  const put = (key: string, body: string, Metadata?: Record<string, string>) =>
    deps.s3.send(new PutObjectCommand({ Bucket: bucket, Key: `meta/${key}`, Body: body, Metadata }));
  await put('de.txt', 'Igel halten Winterschlaf.', { lang: 'de', team: 'manuals', 'bad#key': 'dropped', long: 'x'.repeat(300) });
  await put('en.txt', 'Hedgehogs hibernate.');
  const run = async (metadata: Array<{ key: string; value: string }>) => {
    const started = await startImport(deps, accountId, { s3: { bucket, prefix: 'meta/' }, metadata });
    for (let batch = await deps.localQueue.receive(10, 60); batch.length; batch = await deps.localQueue.receive(10, 60)) {
      for (const message of batch) {
        await runWork(worker, JSON.parse(message.body), { attempt: 1, workId: message.messageId });
        await deps.localQueue.delete(message.receiptHandle);
      }
    }
    const files = await deps.files.listBySourcePrefix(accountId, `s3://${bucket}/meta/`);
    return { job: await getImport(deps, accountId, started.id), byName: new Map(files.map((file) => [file.name, file.metadata])) };
  };
  const first = await run([
    { key: 'team', value: 'support' },
    { key: 'year', value: '2026' },
  ]);
  expect(first.job).toMatchObject({ state: 'completed', created: 2 });
  expect(first.byName.get('de.txt')).toEqual([
    { key: 'year', value: '2026' },
    { key: 'lang', value: 'de' },
    { key: 'team', value: 'manuals' },
  ]);
  expect(first.byName.get('en.txt')).toEqual([
    { key: 'team', value: 'support' },
    { key: 'year', value: '2026' },
  ]);
  reads.length = 0;
  heads.length = 0;
  const again = await run([{ key: 'year', value: '2027' }]);
  expect(again.job).toMatchObject({ state: 'completed', created: 0, updated: 0, unchanged: 2 });
  expect(reads).toEqual([]); // unchanged objects: their metadata by HEAD, their bytes not read
  expect(heads.sort()).toEqual(['meta/de.txt', 'meta/en.txt']);
  expect(again.byName.get('en.txt')).toEqual([{ key: 'year', value: '2027' }]);
  expect(again.byName.get('de.txt')).toEqual([
    { key: 'year', value: '2027' },
    { key: 'lang', value: 'de' },
    { key: 'team', value: 'manuals' },
  ]);
});
