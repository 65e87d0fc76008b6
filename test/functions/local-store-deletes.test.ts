/**
 * The local S3 store (s3rver on the stores' thread) deletes objects as S3 does, and removes the folders a
 * delete leaves empty without listing them (store-thread.mjs): an object's siblings stay readable, the
 * emptied folders leave the disk, and deleting a key that was never there succeeds.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DeleteObjectCommand, DeleteObjectsCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, expect, it } from 'vitest';
import { testDeps } from '../support/stores';

const deps = testDeps();
afterAll(() => deps.documentClient.destroy());

const Bucket = deps.config.bucketName;
const root = `store-deletes-${process.pid}-${Date.now()}`;
const folder = (...parts: string[]) => join(deps.config.dataDir, 's3', Bucket, root, ...parts);
const put = (key: string) => deps.s3.send(new PutObjectCommand({ Bucket, Key: `${root}/${key}`, Body: key }));
const read = async (key: string) => (await deps.s3.send(new GetObjectCommand({ Bucket, Key: `${root}/${key}` }))).Body?.transformToString();
const remove = (key: string) => deps.s3.send(new DeleteObjectCommand({ Bucket, Key: `${root}/${key}` }));

it('keeps the siblings of a deleted object and removes the folders it leaves empty', async () => {
  await Promise.all(['a/b/x', 'a/b/y', 'a/z'].map(put));
  await remove('a/b/x');
  expect(await read('a/b/y')).toBe('a/b/y');
  expect(existsSync(folder('a', 'b'))).toBe(true);
  await remove('a/b/y');
  expect(existsSync(folder('a', 'b'))).toBe(false);
  expect(await read('a/z')).toBe('a/z');
  await deps.s3.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: [{ Key: `${root}/a/z` }] } }));
  expect(existsSync(folder())).toBe(false);
  await expect(read('a/z')).rejects.toThrow();
});

it('deletes a key that was never there, in a folder that does not exist, as S3 does', async () => {
  await expect(remove('never/there/at-all')).resolves.toBeDefined();
});
