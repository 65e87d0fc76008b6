/**
 * Buckets in memory behind the ObjectStore port (the semantics of s3/object-store.ts): objects by key,
 * listed in key order with an S3-style ETag (the quoted MD5 of the bytes).
 *
 * Presigned addresses use the `memory:` scheme: only `openPresigned` of the same bucket reads or writes
 * through them (no HTTP server serves a process's memory), checking their expiry and signed size, so a
 * use case that hands one out still gets a real, usable address in a test.
 */
import { createHash } from 'node:crypto';
import { BadRequestError, InternalError } from '../../core/errors';
import type { ObjectInfo, ObjectStore } from '../../core/ports';
import { compare } from './records';

interface StoredObject {
  bytes: Uint8Array;
  contentType: string;
  etag: string;
  /** User metadata, as S3 keeps `x-amz-meta-*` (names lowercased, without the prefix). */
  metadata?: Record<string, string>;
}

const encoder = new TextEncoder();

export class MemoryObjectStore implements ObjectStore {
  private readonly objects = new Map<string, StoredObject>();

  constructor(readonly bucket = 'kmem-memory') {}

  /** `metadata`: the object's user metadata (what a PUT with `x-amz-meta-*` headers stores on S3). */
  async put(
    key: string,
    body: Uint8Array | string,
    contentType = 'application/octet-stream',
    metadata?: Record<string, string>,
  ): Promise<void> {
    const bytes = typeof body === 'string' ? encoder.encode(body) : Uint8Array.from(body);
    const etag = `"${createHash('md5').update(bytes).digest('hex')}"`;
    const userMetadata = metadata
      ? Object.fromEntries(Object.entries(metadata).map(([name, value]) => [name.toLowerCase(), value]))
      : undefined;
    this.objects.set(key, { bytes, contentType, etag, ...(userMetadata ? { metadata: userMetadata } : {}) });
  }

  async putStream(key: string, body: AsyncIterable<Uint8Array>, contentType = 'application/octet-stream'): Promise<number> {
    const parts: Uint8Array[] = [];
    for await (const part of body) parts.push(part);
    const bytes = Buffer.concat(parts);
    await this.put(key, bytes, contentType);
    return bytes.byteLength;
  }

  async getStream(key: string): Promise<AsyncIterable<Uint8Array> | undefined> {
    const found = await this.get(key);
    return found
      ? (async function* () {
          yield found;
        })()
      : undefined;
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    const found = this.objects.get(key);
    return found ? Uint8Array.from(found.bytes) : undefined;
  }

  async getWithMetadata(key: string): Promise<{ bytes: Uint8Array; metadata: Record<string, string> } | undefined> {
    const found = this.objects.get(key);
    return found ? { bytes: Uint8Array.from(found.bytes), metadata: { ...found.metadata } } : undefined;
  }

  async userMetadata(key: string): Promise<Record<string, string> | undefined> {
    const found = this.objects.get(key);
    return found ? { ...found.metadata } : undefined;
  }

  async head(key: string): Promise<ObjectInfo | undefined> {
    const found = this.objects.get(key);
    return found ? { size: found.bytes.byteLength, contentType: found.contentType } : undefined;
  }

  async delete(key: string): Promise<void> {
    this.objects.delete(key);
  }

  async deleteMany(keys: readonly string[]): Promise<void> {
    for (const key of keys) this.objects.delete(key);
  }

  async deletePrefix(prefix: string): Promise<number> {
    const found = await this.list(prefix);
    for (const key of found) this.objects.delete(key);
    return found.length;
  }

  async list(prefix: string): Promise<string[]> {
    return (await this.listSized(prefix)).map((object) => object.key);
  }

  /** The objects under the prefix with their sizes and ETags, in key order. */
  async listSized(prefix: string): Promise<Array<{ key: string; size: number; etag: string }>> {
    return [...this.objects]
      .filter(([key]) => key.startsWith(prefix))
      .sort(([a], [b]) => compare(a, b))
      .map(([key, object]) => ({ key, size: object.bytes.byteLength, etag: object.etag }));
  }

  async presignPut(key: string, contentType: string, size: number, seconds: number): Promise<string> {
    return this.presigned('PUT', key, seconds, { 'content-type': contentType, 'content-length': String(size) });
  }

  async presignGet(key: string, seconds: number): Promise<string> {
    return this.presigned('GET', key, seconds, {});
  }

  /** A missing source fails the copy (S3 answers NoSuchKey). */
  async copy(from: string, to: string): Promise<void> {
    const found = this.objects.get(from);
    if (!found) throw new InternalError(`no object ${from} to copy`);
    this.objects.set(to, { ...found, bytes: Uint8Array.from(found.bytes) });
  }

  /**
   * Does what a request to a presigned address of this bucket would: a GET answers the object (undefined:
   * none), a PUT stores `body` when its size is the signed one. Throws when the address is not this
   * bucket's, is for the other method, or has expired.
   */
  async openPresigned(address: string, method: 'GET' | 'PUT', body?: Uint8Array): Promise<Uint8Array | undefined> {
    const url = new URL(address);
    const key = decodeURIComponent(url.pathname.slice(1));
    if (url.protocol !== 'memory:' || url.host !== this.bucket || url.searchParams.get('method') !== method) {
      throw new BadRequestError(`${address} is not a ${method} address of bucket ${this.bucket}`);
    }
    if (Number(url.searchParams.get('expires')) < Date.now()) throw new BadRequestError(`${address} has expired`);
    if (method === 'GET') return this.get(key);
    const size = url.searchParams.get('content-length');
    if (!body || String(body.byteLength) !== size) throw new BadRequestError(`the body is not the signed ${size} bytes`);
    await this.put(key, body, url.searchParams.get('content-type') ?? undefined);
    return undefined;
  }

  private presigned(method: 'GET' | 'PUT', key: string, seconds: number, signed: Record<string, string>): string {
    const query = new URLSearchParams({ method, expires: String(Date.now() + seconds * 1000), ...signed });
    return `memory://${this.bucket}/${encodeURIComponent(key)}?${query}`;
  }
}
