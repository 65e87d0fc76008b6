/**
 * The S3 Vectors double through the real SDK client (@aws-sdk/client-s3vectors): each operation's shapes,
 * limits and error codes as the SDK parses them, and exact search with metadata filters.
 */
import {
  ConflictException,
  CreateIndexCommand,
  DeleteIndexCommand,
  DeleteVectorsCommand,
  GetIndexCommand,
  GetVectorsCommand,
  ListIndexesCommand,
  ListVectorsCommand,
  NotFoundException,
  PutVectorsCommand,
  QueryVectorsCommand,
  S3VectorsClient,
  ValidationException,
} from '@aws-sdk/client-s3vectors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type S3VectorsDouble, startS3VectorsDouble } from '../../../functions/local/s3vectors-double';

const BUCKET = 'kmem-test-vectors';
let double: S3VectorsDouble;
let client: S3VectorsClient;
const at = (indexName: string) => ({ vectorBucketName: BUCKET, indexName });

beforeAll(async () => {
  double = await startS3VectorsDouble({ buckets: [BUCKET] });
  client = new S3VectorsClient({
    region: 'us-east-1',
    endpoint: double.endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
});

afterAll(async () => {
  client.destroy();
  await double.close();
});

/** JSON, as the SDK's document type takes it. */
type Json = string | number | boolean | Json[] | { [key: string]: Json };

const vector = (key: string, float32: number[], metadata?: Record<string, Json>) => ({
  key,
  data: { float32 },
  ...(metadata ? { metadata } : {}),
});

describe('S3 Vectors double', () => {
  it('creates, describes, lists and deletes indexes with the service errors', async () => {
    const created = await client.send(
      new CreateIndexCommand({ ...at('lifecycle'), dataType: 'float32', dimension: 3, distanceMetric: 'cosine' }),
    );
    expect(created.indexArn).toBe(`arn:aws:s3vectors:us-east-1:000000000000:bucket/${BUCKET}/index/lifecycle`);
    await expect(
      client.send(new CreateIndexCommand({ ...at('lifecycle'), dataType: 'float32', dimension: 3, distanceMetric: 'cosine' })),
    ).rejects.toBeInstanceOf(ConflictException);
    const { index } = await client.send(new GetIndexCommand(at('lifecycle')));
    expect(index).toMatchObject({ indexName: 'lifecycle', dimension: 3, distanceMetric: 'cosine', dataType: 'float32' });
    expect(index?.creationTime).toBeInstanceOf(Date);
    const listed = await client.send(new ListIndexesCommand({ vectorBucketName: BUCKET, prefix: 'life' }));
    expect(listed.indexes?.map((i) => i.indexName)).toEqual(['lifecycle']);
    await client.send(new DeleteIndexCommand(at('lifecycle')));
    await expect(client.send(new GetIndexCommand(at('lifecycle')))).rejects.toBeInstanceOf(NotFoundException);
    await expect(client.send(new GetIndexCommand({ vectorBucketName: 'no-such-bucket', indexName: 'x-1' }))).rejects.toMatchObject({
      name: 'NotFoundException',
      $metadata: { httpStatusCode: 404 },
    });
  });

  it('refuses bad index settings naming the field', async () => {
    const bad = [
      { ...at('Upper-Case'), dataType: 'float32', dimension: 3, distanceMetric: 'cosine' },
      { ...at('dims'), dataType: 'float32', dimension: 4097, distanceMetric: 'cosine' },
      { ...at('metric'), dataType: 'float32', dimension: 3, distanceMetric: 'dotproduct' },
    ];
    for (const input of bad) {
      const error = await client.send(new CreateIndexCommand(input as never)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationException);
      expect((error as ValidationException).$metadata.httpStatusCode).toBe(400);
    }
  });

  it('puts, gets, lists, queries and deletes vectors within the limits', async () => {
    await client.send(new CreateIndexCommand({ ...at('data'), dataType: 'float32', dimension: 2, distanceMetric: 'cosine' }));
    await client.send(
      new PutVectorsCommand({
        ...at('data'),
        vectors: [
          vector('a', [1, 0], { genre: 'doc', year: 2020 }),
          vector('b', [0, 1], { genre: ['doc', 'drama'], year: 2024 }),
          vector('c', [1, 1]),
        ],
      }),
    );
    const got = await client.send(new GetVectorsCommand({ ...at('data'), keys: ['a', 'zz'], returnData: true, returnMetadata: true }));
    expect(got.vectors).toEqual([{ key: 'a', data: { float32: [1, 0] }, metadata: { genre: 'doc', year: 2020 } }]);
    const page1 = await client.send(new ListVectorsCommand({ ...at('data'), maxResults: 2 }));
    const page2 = await client.send(new ListVectorsCommand({ ...at('data'), maxResults: 2, nextToken: page1.nextToken }));
    expect([...(page1.vectors ?? []), ...(page2.vectors ?? [])].map((v) => v.key)).toEqual(['a', 'b', 'c']);
    expect(page2.nextToken).toBeUndefined();

    const query = (filter?: Record<string, Json>) =>
      client.send(
        new QueryVectorsCommand({
          ...at('data'),
          topK: 3,
          queryVector: { float32: [1, 0.1] },
          returnDistance: true,
          ...(filter ? { filter } : {}),
        }),
      );
    const all = await query();
    expect(all.distanceMetric).toBe('cosine');
    expect(all.vectors?.map((v) => v.key)).toEqual(['a', 'c', 'b']);
    expect(all.vectors?.[0]?.distance).toBeCloseTo(1 - 1 / Math.sqrt(1.01), 6);
    const keys = async (filter: Record<string, Json>) => (await query(filter)).vectors?.map((v) => v.key);
    expect(await keys({ genre: 'drama' })).toEqual(['b']);
    expect(await keys({ genre: { $eq: 'doc' } })).toEqual(['a', 'b']);
    expect(await keys({ genre: { $ne: 'drama' } })).toEqual(['a']);
    expect(await keys({ genre: { $in: ['drama', 'x'] } })).toEqual(['b']);
    expect(await keys({ genre: { $nin: ['drama'] } })).toEqual(['a']);
    expect(await keys({ genre: { $exists: false } })).toEqual(['c']);
    expect(await keys({ year: { $gte: 2021 } })).toEqual(['b']);
    expect(await keys({ year: { $lt: 2021 } })).toEqual(['a']);
    expect(await keys({ $or: [{ year: { $gt: 2023 } }, { genre: { $exists: false } }] })).toEqual(['c', 'b']);
    expect(await keys({ $and: [{ genre: 'doc' }, { year: { $lte: 2020 } }] })).toEqual(['a']);
    for (const filter of <Record<string, Json>[]>[
      { genre: { $regex: 'd' } },
      { year: { $gt: '2020' } },
      { genre: { $in: [] } },
      { $and: [] },
      {},
    ]) {
      await expect(query(filter)).rejects.toBeInstanceOf(ValidationException);
    }

    await client.send(new DeleteVectorsCommand({ ...at('data'), keys: ['a', 'never-there'] }));
    expect((await query()).vectors?.map((v) => v.key)).toEqual(['c', 'b']);
  });

  it('answers the documented limits with ValidationException', async () => {
    await client.send(new CreateIndexCommand({ ...at('limits'), dataType: 'float32', dimension: 2, distanceMetric: 'cosine' }));
    const put = (vectors: ReturnType<typeof vector>[]) => client.send(new PutVectorsCommand({ ...at('limits'), vectors }));
    const refused = [
      Array.from({ length: 501 }, (_, i) => vector(`k${i}`, [1, i])),
      [vector('wrong-dimension', [1, 2, 3])],
      [vector('zero', [0, 0])],
      [vector('x'.repeat(1025), [1, 0])],
      [vector('too-much-filterable', [1, 0], { text: 'x'.repeat(2100) })],
      [vector('too-many-keys', [1, 0], Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])))],
    ];
    for (const vectors of refused) await expect(put(vectors)).rejects.toBeInstanceOf(ValidationException);
    expect(double.sizeOf(BUCKET, 'limits')).toBe(0);
    const topK = client.send(new QueryVectorsCommand({ ...at('limits'), topK: 101, queryVector: { float32: [1, 0] } }));
    await expect(topK).rejects.toMatchObject({ name: 'ValidationException', message: expect.stringContaining('topK') });
    await put(Array.from({ length: 500 }, (_, i) => vector(`k${i}`, [1, i])));
    expect(double.sizeOf(BUCKET, 'limits')).toBe(500);
  });

  it('answers an unsigned request AccessDeniedException and injected faults as the service would', async () => {
    // an index of its own (the limits test's may not exist yet in another order)
    await client.send(new CreateIndexCommand({ ...at('faults'), dataType: 'float32', dimension: 2, distanceMetric: 'cosine' }));
    const unsigned = await fetch(`${double.endpoint}/GetIndex`, { method: 'POST', body: JSON.stringify(at('faults')) });
    expect(unsigned.status).toBe(403);
    expect(unsigned.headers.get('x-amzn-errortype')).toBe('AccessDeniedException');
    double.fail('GetIndex', { error: 'TooManyRequestsException', times: 1 });
    await expect(client.send(new GetIndexCommand(at('faults')))).rejects.toMatchObject({
      name: 'TooManyRequestsException',
      $metadata: { httpStatusCode: 429 },
    });
    await expect(client.send(new GetIndexCommand(at('faults')))).resolves.toBeDefined();
  });
});
