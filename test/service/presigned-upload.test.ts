/**
 * Presigned uploads against s3rver: the address is signed for the declared size (S3 refuses other sizes;
 * s3rver checks no signature, so files/create checks the real size), the size is bounded by
 * KMEM_MAX_UPLOAD_MB, and a PUT to the address after files/create cannot replace what the file holds.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { S3ObjectStore } from '../../functions/adapters/s3/object-store';
import { S3Client } from '@aws-sdk/client-s3';
import { get, post, waitFor } from '../support/api';
import { testDeps } from '../support/stores';

const stores = testDeps();
afterAll(() => stores.documentClient.destroy());

const put = (url: string, body: string) => fetch(url, { method: 'PUT', body, headers: { 'content-type': 'text/plain' } });

describe('presigned uploads', () => {
  it('need the size, at most the upload limit', async () => {
    const missing = await post('/files/upload-url', { name: 'a.txt' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/^size: /);
    const huge = await post('/files/upload-url', { name: 'a.txt', size: 60 * 1024 * 1024 });
    expect(huge.status).toBe(400);
    expect(huge.body.error).toBe('size: is larger than the 50 MB upload limit');
  });

  it('sign the content length and carry no checksum of an empty body, on AWS too', async () => {
    const local = new URL((await post('/files/upload-url', { name: 'a.txt', size: 5 })).body.data.uploadUrl);
    const aws = new S3ObjectStore(
      new S3Client({}),
      'bucket',
      new S3Client({
        region: 'eu-west-1',
        credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
        requestChecksumCalculation: 'WHEN_REQUIRED',
      }),
    );
    const signed = new URL(await aws.presignPut('incoming/a/b/c.txt', 'text/plain', 5, 60));
    for (const url of [local, signed]) {
      expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toContain('content-length');
      expect([...url.searchParams.keys()].filter((name) => name.startsWith('x-amz-checksum'))).toEqual([]);
    }
  });

  it('refuse at create an object larger than the address was made for', async () => {
    const asked = (await post('/files/upload-url', { name: 'small.txt', size: 10 })).body.data;
    expect((await put(asked.uploadUrl, 'x'.repeat(5_000))).status).toBe(200); // s3rver checks no signature
    const created = await post('/files/create', { name: 'small.txt', key: asked.key, fileType: 'text' });
    expect(created.status).toBe(400);
    expect(created.body.error).toBe(
      'key: the uploaded object (5000 bytes) is not the 10 bytes the upload address was made for; upload it again',
    );
  });

  it('keep what files/create took when the address is used again', async () => {
    const original = 'the first version';
    const asked = (await post('/files/upload-url', { name: 'kept.txt', size: original.length })).body.data;
    expect((await put(asked.uploadUrl, original)).status).toBe(200);
    const created = await post('/files/create', { name: 'kept.txt', key: asked.key, fileType: 'text' });
    expect(created.status).toBe(200);
    expect((await put(asked.uploadUrl, 'a replacement of the same')).status).toBe(200);
    const ready = await waitFor(`/files/get/${created.body.data.id}`, (b) => b.data?.state === 'ready');
    expect(ready.data).toMatchObject({ content: original, size: original.length });
    expect(Buffer.from((await stores.objects.get(asked.key)) ?? []).toString()).toBe(original);
    expect((await get(`/files/get/${created.body.data.id}`)).body.data.content).toBe(original);
  });
});
