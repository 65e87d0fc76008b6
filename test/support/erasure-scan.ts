/**
 * Reads both stores of the test runtime whole (every object of the bucket, every item of the table,
 * through the SDK) for erasure tests: what still holds any of some texts, in its key or its content.
 */
import { constants, gunzipSync } from 'node:zlib';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { Json } from './api';
import type { TestDeps } from './stores';

type Stores = Pick<TestDeps, 's3' | 'documentClient' | 'config'>;

/**
 * What an object's bytes were found to hold, by key, ETag (a digest of the bytes) and the texts looked
 * for: an object unchanged since a look is not read again, so a poll of the bucket reads only what changed.
 */
const verdicts = new Map<string, boolean>();

/** Keys of every object whose key or bytes hold one of `texts` (gzipped archives are read decompressed). */
export async function objectsHolding(stores: Stores, texts: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  let token: string | undefined;
  do {
    const page = await stores.s3.send(new ListObjectsV2Command({ Bucket: stores.config.bucketName, ContinuationToken: token }));
    for (const object of page.Contents ?? []) {
      const key = object.Key ?? '';
      const seen = object.ETag ? `${key}\n${object.ETag}\n${texts.join('\n')}` : undefined;
      const holds = (seen === undefined ? undefined : verdicts.get(seen)) ?? (await objectHolds(stores, key, texts));
      if (seen !== undefined && holds !== undefined) verdicts.set(seen, holds);
      if (holds) found.push(key);
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return found;
}

/** Whether the object's key or bytes hold one of `texts`; undefined when it was deleted since the listing. */
async function objectHolds(stores: Stores, key: string, texts: readonly string[]): Promise<boolean | undefined> {
  // An answer cut off mid-body ("aborted": the store closed the socket) was seen in CI twice while the
  // files beside this one deleted objects of the shared bucket: read it once more; an object gone by
  // then was deleted since the listing, one still there is read whole (a kept object is still found).
  let bytes = await objectBytes(stores, key).catch((error: Error) => (cutOff(error) ? objectBytes(stores, key) : Promise.reject(error)));
  if (!bytes) return undefined;
  // archives are read decompressed (as far as they go: a truncated one too)
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH });
  const text = `${key}\n${bytes.toString('latin1')}`;
  return texts.some((t) => text.includes(t));
}

/** The object's bytes; undefined when there is no such key. */
async function objectBytes(stores: Stores, key: string): Promise<Buffer | undefined> {
  const out = await stores.s3
    .send(new GetObjectCommand({ Bucket: stores.config.bucketName, Key: key }))
    .catch((error: Error) => (error.name === 'NoSuchKey' ? undefined : Promise.reject(error)));
  return out ? Buffer.from((await out.Body?.transformToByteArray()) ?? []) : undefined;
}

/** A read whose answer ended early: Node's client says "aborted" (ECONNRESET) when the socket closes mid-body. */
const cutOff = (error: Error): boolean => error.message === 'aborted' || (error as NodeJS.ErrnoException).code === 'ECONNRESET';

/** Every item of the table whose keys or attributes hold one of `texts`. */
export async function itemsHolding(stores: Stores, texts: readonly string[]): Promise<Json[]> {
  const found: Json[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await stores.documentClient.send(new ScanCommand({ TableName: stores.config.tableName, ExclusiveStartKey: start }));
    found.push(...(page.Items ?? []).filter((item) => texts.some((t) => JSON.stringify(item, setsAsArrays).includes(t))));
    start = page.LastEvaluatedKey;
  } while (start);
  return found;
}

/** String sets (excludedFileIds, refundedJobs) as arrays, so their members are read too. */
const setsAsArrays = (_key: string, value: unknown) => (value instanceof Set ? [...value] : value);

/** Polls both stores until neither holds any of `texts`, or `boundMs` has passed: what is left then. */
export async function leftAfter(stores: Stores, texts: readonly string[], boundMs: number): Promise<{ objects: string[]; items: Json[] }> {
  const deadline = Date.now() + boundMs;
  const look = async () => ({ objects: await objectsHolding(stores, texts), items: await itemsHolding(stores, texts) });
  // While an object still holds a text the look is not done: the table (every item, through dynalite) is
  // scanned only once the bucket is clean, and once more at the end when something was left.
  const quickLook = async () => {
    const objects = await objectsHolding(stores, texts);
    return { objects, items: objects.length > 0 ? undefined : await itemsHolding(stores, texts) };
  };
  let left: { objects: string[]; items: Json[] | undefined } | undefined;
  do {
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // each look lists the bucket and reads what changed
    // a look whose listing or scan was cut off (see objectHolds) is taken again at the next poll
    left = (await quickLook().catch((error: Error) => (cutOff(error) ? undefined : Promise.reject(error)))) ?? left;
  } while ((left?.items === undefined || left.objects.length > 0 || left.items.length > 0) && Date.now() < deadline);
  return left?.items !== undefined && left.objects.length === 0 && left.items.length === 0 ? { objects: [], items: [] } : look();
}
