/** The contract of ObjectStore (the artefact bucket), and of the listing an S3 import reads. */
import { describe, expect, it } from 'vitest';
import { type MakeStores, newId } from './records';

const text = (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : new TextDecoder().decode(bytes));

/** `createBucket`: makes the other bucket an import reads exist (S3 needs it made; memory makes it on first use). */
export function objectStoreContract(make: MakeStores, createBucket: (name: string) => Promise<void>): void {
  describe('ObjectStore', () => {
    it('puts, reads, heads, copies and deletes objects', async () => {
      const { objects } = make();
      const root = `contract/${newId()}/`;
      await objects.put(`${root}a.txt`, 'hello', 'text/plain');
      await objects.put(`${root}b.bin`, new Uint8Array([1, 2, 3]));
      expect(text(await objects.get(`${root}a.txt`))).toBe('hello');
      expect(await objects.head(`${root}a.txt`)).toEqual({ size: 5, contentType: 'text/plain' });
      expect(await objects.head(`${root}b.bin`)).toEqual({ size: 3, contentType: 'application/octet-stream' });
      expect(await objects.get(`${root}missing`)).toBeUndefined();
      expect(await objects.head(`${root}missing`)).toBeUndefined();
      await objects.copy(`${root}a.txt`, `${root}copy/a.txt`);
      await objects.put(`${root}a.txt`, 'changed', 'text/plain');
      expect(text(await objects.get(`${root}copy/a.txt`))).toBe('hello');
      await objects.delete(`${root}a.txt`);
      await objects.delete(`${root}never`);
      expect(await objects.get(`${root}a.txt`)).toBeUndefined();
    });

    it('writes an object from a stream (in parts past 8 MiB: a multipart upload) and reads it back as a stream', async () => {
      const { objects } = make();
      const root = `contract/${newId()}/`;
      const piece = (i: number) => new Uint8Array(3 * 1024 * 1024).fill(i % 251);
      async function* pieces(count: number) {
        for (let i = 0; i < count; i++) yield piece(i);
      }
      expect(await objects.putStream(`${root}big.bin`, pieces(7), 'application/gzip')).toBe(7 * 3 * 1024 * 1024); // 21 MiB: 3 parts
      expect(await objects.putStream(`${root}small.bin`, pieces(1))).toBe(3 * 1024 * 1024); // one part: one PUT
      expect(await objects.putStream(`${root}empty.bin`, pieces(0))).toBe(0);
      expect(await objects.head(`${root}big.bin`)).toEqual({ size: 7 * 3 * 1024 * 1024, contentType: 'application/gzip' });
      const read: Uint8Array[] = [];
      for await (const part of (await objects.getStream(`${root}big.bin`)) ?? []) read.push(part);
      const whole = Buffer.concat(read);
      expect(whole.length).toBe(7 * 3 * 1024 * 1024);
      for (let i = 0; i < 7; i++) expect(whole[i * 3 * 1024 * 1024 + 5]).toBe(i % 251);
      expect(await objects.getStream(`${root}missing`)).toBeUndefined();
      async function* failing() {
        yield piece(0);
        yield piece(1);
        yield piece(2);
        throw new Error('the source broke');
      }
      await expect(objects.putStream(`${root}broken.bin`, failing())).rejects.toThrow('the source broke');
      expect(await objects.head(`${root}broken.bin`)).toBeUndefined(); // an aborted upload leaves no object
      await objects.deletePrefix(root);
    });

    it('lists a prefix in key order, and deletes by key list or by prefix', async () => {
      const { objects } = make();
      const root = `contract/${newId()}/`;
      for (const key of ['b/2', 'a/1', 'b/1', 'c']) await objects.put(`${root}${key}`, key);
      expect(await objects.list(`${root}b/`)).toEqual([`${root}b/1`, `${root}b/2`]);
      expect(await objects.list(root)).toEqual(['a/1', 'b/1', 'b/2', 'c'].map((key) => `${root}${key}`));
      await objects.deleteMany([`${root}a/1`, `${root}nothing`]);
      expect(await objects.deletePrefix(`${root}b/`)).toBe(2);
      expect(await objects.list(root)).toEqual([`${root}c`]);
      expect(await objects.deletePrefix(`${root}b/`)).toBe(0);
    });

    it('hands out presigned addresses naming the object', async () => {
      const { objects } = make();
      const key = `contract/${newId()}/up.txt`;
      const put = new URL(await objects.presignPut(key, 'text/plain', 5, 60));
      const get = new URL(await objects.presignGet(key, 60));
      for (const address of [put, get]) expect(decodeURIComponent(address.pathname)).toContain(key);
      expect(put.href).not.toBe(get.href);
    });

    it('lists another bucket’s objects with sizes and content ETags (what an S3 import compares)', async () => {
      const { bucket } = make();
      await createBucket('kmem-contract-import');
      const other = bucket('kmem-contract-import');
      const root = `contract/${newId()}/`;
      await other.put(`${root}x.txt`, 'same');
      await other.put(`${root}y.txt`, 'same');
      await other.put(`${root}z.txt`, 'different');
      const listed = await other.listSized(root);
      expect(listed.map(({ key, size }) => [key, size])).toEqual([
        [`${root}x.txt`, 4],
        [`${root}y.txt`, 4],
        [`${root}z.txt`, 9],
      ]);
      expect(listed[0]?.etag).toBeDefined();
      expect(listed[0]?.etag).toBe(listed[1]?.etag);
      expect(listed[0]?.etag).not.toBe(listed[2]?.etag);
    });
  });
}
