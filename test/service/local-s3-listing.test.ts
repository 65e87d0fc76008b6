/**
 * The local S3 store pages listings of more than 1,000 keys: s3rver seals its continuation tokens with
 * single DES, which Node's OpenSSL 3 lacks (the store thread serves it as one-key triple DES). Without that
 * the first page of such a listing answered InternalError, so an S3-prefix import of a corpus failed.
 */
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, expect, it } from 'vitest';
import { S3ObjectStore } from '../../functions/adapters/s3/object-store';
import { testDeps } from '../support/stores';

const stores = testDeps();
afterAll(() => stores.documentClient.destroy());

it('lists every key under a prefix of more than 1,000 objects, page by page', async () => {
  const bucket = `listing-${Date.now()}`;
  await stores.s3.send(new CreateBucketCommand({ Bucket: bucket }));
  const keys = Array.from({ length: 1_005 }, (_, i) => `corpus/doc-${String(i).padStart(4, '0')}.txt`);
  for (let i = 0; i < keys.length; i += 50) {
    await Promise.all(keys.slice(i, i + 50).map((Key) => stores.s3.send(new PutObjectCommand({ Bucket: bucket, Key, Body: 'x' }))));
  }
  const listed = await new S3ObjectStore(stores.s3, bucket).listSized('corpus/');
  expect(listed.map((object) => object.key)).toEqual(keys);
  expect(listed.every((object) => object.size === 1)).toBe(true);
  // an import's listing stops at the end of the page that passes its member limit: the rest is never listed
  const bounded = await new S3ObjectStore(stores.s3, bucket).listSized('corpus/', { maxFiles: 11 });
  expect(bounded.map((object) => object.key)).toEqual(keys.slice(0, 1_000));
}, 60_000);
