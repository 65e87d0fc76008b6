/**
 * Where an S3 import may read, checked by the API's use case and again by the worker against the test
 * runtime's S3 store: never the artefact bucket (even with KMEM_IMPORT_BUCKETS=*), only the account's own
 * `bucket/prefix` pairs, and a listing within the import limits.
 */
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, describe, expect, it } from 'vitest';
import type { FileImport } from '../../functions/core/files/bulk-import';
import { createAccount } from '../../functions/core/use-cases/accounts';
import { setImportSources } from '../../functions/core/use-cases/import-sources';
import { getImport, startImport } from '../../functions/core/use-cases/imports';
import { runWork } from '../../functions/worker/dispatch';
import { type TestDeps, testConfig, testDeps } from '../support/stores';

const everyBucket = testDeps(testConfig({ KMEM_IMPORT_BUCKETS: '*' }));
afterAll(() => everyBucket.documentClient.destroy());

async function account(deps: TestDeps, label: string) {
  const name = `${label}-${process.pid}-${Date.now()}`;
  return { name, id: (await createAccount(deps, name)).account.id };
}

/** Runs the import's `file.import` work once, as the worker does, and answers the import after it. */
async function runImportWork(deps: TestDeps, accountId: string, importId: string): Promise<FileImport> {
  await runWork(deps.worker, { kind: 'file.import', accountId, importId }, { attempt: 1, workId: importId });
  return getImport(deps, accountId, importId);
}

/** An import recorded as the API would (bypassing its checks: queued before a change, or written another way). */
async function recordedImport(deps: TestDeps, accountId: string, bucket: string, prefix: string): Promise<string> {
  const id = deps.ids.uuid();
  const at = new Date().toISOString();
  await deps.imports.create({
    ...{
      id,
      accountId,
      source: { kind: 's3', bucket, prefix },
      memoryId: null,
      fileType: null,
      prune: false,
      metadata: [],
      state: 'running',
    },
    ...{ total: 0, created: 0, updated: 0, unchanged: 0, deleted: 0, failed: 0, errors: [], position: 0, refreshMemoryIds: [] },
    ...{ createdAt: at, updatedAt: at },
  });
  return id;
}

describe('the artefact bucket', () => {
  it('is never an import source: not by default, not with KMEM_IMPORT_BUCKETS=*, not in the API nor in the worker', async () => {
    expect(testConfig().imports.buckets).toEqual([]); // the local runtime reads no bucket unless told
    const deps = everyBucket;
    const artefacts = deps.config.bucketName;
    const alpha = await account(deps, 'alpha');
    await deps.objects.put(`bronze/${alpha.id}/u1/alpha-secret.txt`, Buffer.from('ALPHA TOP SECRET: 7731-ZEBRA.'), 'text/plain');
    const beta = await account(deps, 'beta');
    await expect(startImport(deps, beta.id, { s3: { bucket: artefacts, prefix: 'bronze/' } })).rejects.toThrow(
      `s3.bucket: '${artefacts}' is the service's own artefact bucket, which is never an import source`,
    );
    await expect(setImportSources(deps, beta.name, [`${artefacts}/bronze/`])).rejects.toThrow(/artefact bucket/);

    const queued = await recordedImport(deps, beta.id, artefacts, 'bronze/');
    const done = await runImportWork(deps, beta.id, queued);
    expect(done).toMatchObject({ state: 'failed', created: 0 });
    expect(done.errors[0]?.error).toMatch(/is the service's own artefact bucket/);
    expect(await deps.files.listBySourcePrefix(beta.id, `s3://${artefacts}/`)).toEqual([]);
  });
});

describe("an account's import sources", () => {
  it('are the only prefixes its imports read, checked again by the worker', async () => {
    const deps = everyBucket;
    const bucket = `sources-${Date.now()}`;
    await deps.s3.send(new CreateBucketCommand({ Bucket: bucket }));
    await deps.s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'team-a/a.txt', Body: 'Team A notes.' }));
    await deps.s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'team-b/b.txt', Body: 'Team B notes.' }));
    const a = await account(deps, 'team-a');
    await expect(startImport(deps, a.id, { s3: { bucket, prefix: 'team-a/' } })).rejects.toThrow(
      /^s3\.prefix: '.+\/team-a\/' is not under one of the account's import sources/,
    );
    expect((await setImportSources(deps, a.name, [`${bucket}/team-a/`])).importSources).toEqual([`${bucket}/team-a/`]);
    await expect(startImport(deps, a.id, { s3: { bucket, prefix: 'team-b/' } })).rejects.toThrow(/s3\.prefix/);
    await expect(startImport(deps, a.id, { s3: { bucket, prefix: '' } })).rejects.toThrow(/s3\.prefix/);
    const started = await startImport(deps, a.id, { s3: { bucket, prefix: 'team-a/' } });
    expect(await runImportWork(deps, a.id, started.id)).toMatchObject({ state: 'completed', created: 1 });

    // started while allowed, the source taken away before the worker runs it: refused, nothing read
    const again = await startImport(deps, a.id, { s3: { bucket, prefix: 'team-a/' } });
    await setImportSources(deps, a.name, []);
    const refused = await runImportWork(deps, a.id, again.id);
    expect(refused).toMatchObject({ state: 'failed', total: 0 });
    expect(refused.errors[0]?.error).toMatch(/is not under one of the account's import sources/);
    const other = await recordedImport(deps, a.id, bucket, 'team-b/');
    expect(await runImportWork(deps, a.id, other)).toMatchObject({ state: 'failed', created: 0 });
  });

  it('are checked when the operator sets them', async () => {
    const deps = everyBucket;
    await expect(setImportSources(deps, 'no-such-account-here', ['corp-docs/'])).rejects.toThrow(/account 'no-such-account-here'/);
    const a = await account(deps, 'checked');
    await expect(setImportSources(deps, a.name, ['Not A Bucket/x'])).rejects.toThrow(
      /^importSources: 'Not A Bucket\/x' does not start with an S3 bucket name/,
    );
    const set = await setImportSources(deps, a.name, ['corp-docs', 'corp-docs/team-a/', 'corp-docs']);
    expect(set.importSources).toEqual(['corp-docs', 'corp-docs/team-a/']);
    expect((await deps.accounts.get(a.id))?.importSources).toEqual(['corp-docs', 'corp-docs/team-a/']);
  });
});

describe('an S3 listing', () => {
  it('is held to the import limits: members and total size', async () => {
    const deps = testDeps(testConfig({ KMEM_IMPORT_BUCKETS: '*', KMEM_IMPORT_MAX_MEMBERS: '3', KMEM_IMPORT_MAX_TOTAL_MB: '1' }));
    try {
      const bucket = `limits-${Date.now()}`;
      await deps.s3.send(new CreateBucketCommand({ Bucket: bucket }));
      for (const key of ['many/1.txt', 'many/2.txt', 'many/3.txt', 'many/4.txt', 'many/folder/'])
        await deps.s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: key.endsWith('/') ? '' : `object ${key}` }));
      const large = Buffer.alloc(600 * 1024, 'x');
      for (const key of ['large/1.txt', 'large/2.txt']) await deps.s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: large }));
      const a = await account(deps, 'limits');
      await setImportSources(deps, a.name, [bucket]);

      const many = await startImport(deps, a.id, { s3: { bucket, prefix: 'many/' } });
      const crowded = await runImportWork(deps, a.id, many.id);
      expect(crowded).toMatchObject({ state: 'failed', created: 0 });
      expect(crowded.errors[0]?.error).toBe('the prefix holds more than 3 objects');
      const big = await startImport(deps, a.id, { s3: { bucket, prefix: 'large/' } });
      const heavy = await runImportWork(deps, a.id, big.id);
      expect(heavy).toMatchObject({ state: 'failed', created: 0 });
      expect(heavy.errors[0]?.error).toBe(`the objects under the prefix are ${2 * large.length} bytes, over the limit of ${1 << 20}`);
      expect(await deps.files.listBySourcePrefix(a.id, `s3://${bucket}/`)).toEqual([]);
    } finally {
      deps.documentClient.destroy();
    }
  });
});
