/**
 * S3 answers a multi-object delete with 200 and lists the keys it could not delete (quiet mode lists only
 * those). s3rver never does, so an HTTP server on 127.0.0.1 answers as S3 does, through the real SDK
 * client: the store must fail such a delete (its work retried), never pass it for done, since a delete
 * may be an erasure (docs/backups.md).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3ObjectStore } from '../../../functions/adapters/s3/object-store';

const XML = '<?xml version="1.0" encoding="UTF-8"?>';
let failing: string[] = [];
const deleted: string[] = [];
let server: Server;
let store: S3ObjectStore;

/** The keys of a DeleteObjects request body. */
const keysOf = (body: string): string[] => [...body.matchAll(/<Key>([^<]*)<\/Key>/g)].map((match) => match[1] ?? '');

beforeAll(async () => {
  server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      const keys = keysOf(Buffer.concat(parts).toString('utf8'));
      deleted.push(...keys.filter((key) => !failing.includes(key)));
      const errors = keys
        .filter((key) => failing.includes(key))
        .map(
          (key) =>
            `<Error><Key>${key}</Key><Code>InternalError</Code><Message>We encountered an internal error. Please try again.</Message></Error>`,
        );
      response.writeHead(200, { 'content-type': 'application/xml' });
      response.end(`${XML}<DeleteResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${errors.join('')}</DeleteResult>`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const s3 = new S3Client({
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  store = new S3ObjectStore(s3, 'bucket');
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('S3ObjectStore deletes', () => {
  it('passes when S3 deleted every key', async () => {
    failing = [];
    await expect(store.deleteMany(['a/1', 'a/2'])).resolves.toBeUndefined();
    expect(deleted).toEqual(expect.arrayContaining(['a/1', 'a/2']));
  });

  it('fails, naming the first key and its code, when S3 lists keys it could not delete', async () => {
    failing = ['b/2', 'b/3'];
    await expect(store.deleteMany(['b/1', 'b/2', 'b/3'])).rejects.toThrow("S3 did not delete 2 of 3 objects, 'b/2' first: InternalError");
    await expect(store.delete('b/3')).rejects.toThrow("'b/3' first: InternalError");
  });
});
