/** The artefact bucket behind the ObjectStore port: S3 on AWS, s3rver on the local runtime. */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { ObjectInfo, ObjectStore } from '../../core/ports';

const DELETE_BATCH = 1000;
/** Bytes of one part of a streamed upload (S3's least part size is 5 MiB). */
const PART_BYTES = 8 * 1024 * 1024;

export class S3ObjectStore implements ObjectStore {
  /** `presigner` signs upload addresses (a client that adds no checksum of an empty body to them). */
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
    private readonly presigner: S3Client = s3,
  ) {}

  async put(key: string, body: Uint8Array | string, contentType = 'application/octet-stream'): Promise<void> {
    await this.s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }));
  }

  /** A multipart upload of parts of PART_BYTES (one PUT when the stream is smaller); aborted when the stream fails. */
  async putStream(key: string, body: AsyncIterable<Uint8Array>, contentType = 'application/octet-stream'): Promise<number> {
    const parts = partsOf(body);
    const first = await parts.next();
    const second = first.done ? undefined : await parts.next();
    if (first.done || second?.done) {
      const bytes = first.done ? new Uint8Array() : first.value;
      await this.put(key, bytes, contentType);
      return bytes.byteLength;
    }
    const bucket = { Bucket: this.bucket, Key: key };
    const { UploadId } = await this.s3.send(new CreateMultipartUploadCommand({ ...bucket, ContentType: contentType }));
    try {
      const done: Array<{ ETag: string | undefined; PartNumber: number }> = [];
      let size = 0;
      const upload = async (bytes: Uint8Array) => {
        const PartNumber = done.length + 1;
        const out = await this.s3.send(new UploadPartCommand({ ...bucket, UploadId, PartNumber, Body: bytes }));
        done.push({ ETag: out.ETag, PartNumber });
        size += bytes.byteLength;
      };
      await upload(first.value);
      if (second) await upload(second.value);
      for await (const bytes of parts) await upload(bytes);
      await this.s3.send(new CompleteMultipartUploadCommand({ ...bucket, UploadId, MultipartUpload: { Parts: done } }));
      return size;
    } catch (error) {
      await this.s3.send(new AbortMultipartUploadCommand({ ...bucket, UploadId })).catch(() => undefined);
      throw error;
    }
  }

  async getStream(key: string): Promise<AsyncIterable<Uint8Array> | undefined> {
    try {
      const out = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return (out.Body as AsyncIterable<Uint8Array> | undefined) ?? (async function* () {})();
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    try {
      const out = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return out.Body ? await out.Body.transformToByteArray() : new Uint8Array();
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /** The object's bytes with its user metadata (`x-amz-meta-*`, names without the prefix); undefined when missing. */
  async getWithMetadata(key: string): Promise<{ bytes: Uint8Array; metadata: Record<string, string> } | undefined> {
    try {
      const out = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return { bytes: out.Body ? await out.Body.transformToByteArray() : new Uint8Array(), metadata: out.Metadata ?? {} };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /** The object's user metadata alone (a HEAD request); undefined when missing. */
  async userMetadata(key: string): Promise<Record<string, string> | undefined> {
    try {
      return (await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }))).Metadata ?? {};
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async head(key: string): Promise<ObjectInfo | undefined> {
    try {
      const out = await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: out.ContentLength ?? 0, contentType: out.ContentType ?? null };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.deleteKeys([key]);
  }

  async deleteMany(keys: readonly string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += DELETE_BATCH) await this.deleteKeys(keys.slice(i, i + DELETE_BATCH));
  }

  async deletePrefix(prefix: string): Promise<number> {
    const found = await this.list(prefix);
    for (let i = 0; i < found.length; i += DELETE_BATCH) await this.deleteKeys(found.slice(i, i + DELETE_BATCH));
    return found.length;
  }

  async list(prefix: string): Promise<string[]> {
    return (await this.listSized(prefix)).map((object) => object.key);
  }

  /**
   * The objects under the prefix with their sizes and ETags, in key order. `maxFiles`: stop listing (at a
   * page's end) once that many objects that are not folder markers (keys ending in `/`) are found.
   */
  async listSized(prefix: string, options: { maxFiles?: number } = {}): Promise<ListedObject[]> {
    const found: ListedObject[] = [];
    let files = 0;
    let token: string | undefined;
    do {
      const out = await this.s3.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }));
      const listed = (out.Contents ?? []).flatMap(listedObject);
      found.push(...listed);
      files += listed.filter((object) => !object.key.endsWith('/')).length;
      const enough = options.maxFiles !== undefined && files >= options.maxFiles;
      token = out.IsTruncated && !enough ? out.NextContinuationToken : undefined;
    } while (token);
    return found;
  }

  /** Signs `content-length` too, so S3 refuses a PUT of any other size. */
  presignPut(key: string, contentType: string, size: number, seconds: number): Promise<string> {
    const command = new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: contentType, ContentLength: size });
    return getSignedUrl(this.presigner, command, { expiresIn: seconds, signableHeaders: new Set(['content-length']) });
  }

  presignGet(key: string, seconds: number): Promise<string> {
    return getSignedUrl(this.presigner, new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn: seconds });
  }

  async copy(from: string, to: string): Promise<void> {
    const source = `${this.bucket}/${from.split('/').map(encodeURIComponent).join('/')}`;
    await this.s3.send(new CopyObjectCommand({ Bucket: this.bucket, Key: to, CopySource: source }));
  }

  private async deleteKeys(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    const out = await this.s3.send(
      new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }),
    );
    // S3 answers 200 with the keys it could not delete listed (quiet mode lists only those): a delete that
    // erases must not pass for done, so the work fails and is retried
    const [first] = out.Errors ?? [];
    if (first)
      throw new Error(
        `S3 did not delete ${out.Errors?.length} of ${keys.length} objects, '${first.Key}' first: ${first.Code} ${first.Message}`,
      );
  }
}

interface ListedObject {
  key: string;
  size: number;
  etag?: string;
}

/** A listing's entry as kmem reads it; none for an entry without a key. */
function listedObject(object: { Key?: string; Size?: number; ETag?: string }): ListedObject[] {
  if (!object.Key) return [];
  return [{ key: object.Key, size: object.Size ?? 0, ...(object.ETag ? { etag: object.ETag } : {}) }];
}

/** The stream regrouped into parts of PART_BYTES (the last one smaller). */
async function* partsOf(body: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  let pending: Uint8Array[] = [];
  let bytes = 0;
  for await (const piece of body) {
    pending.push(piece);
    bytes += piece.byteLength;
    if (bytes >= PART_BYTES) {
      yield Buffer.concat(pending);
      pending = [];
      bytes = 0;
    }
  }
  if (bytes > 0) yield Buffer.concat(pending);
}

function isMissing(error: unknown): boolean {
  if (error instanceof NoSuchKey || error instanceof NotFound) return true;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return status === 404;
}
