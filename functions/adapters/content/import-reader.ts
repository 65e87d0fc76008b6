/**
 * The sources of bulk imports: an uploaded archive in the artefact bucket (functions/adapters/archive reads it,
 * limits first), or the objects under a prefix of a bucket the stage may read.
 */
import type { ImportSettings } from '../../config';
import { ArchiveRefusedError, archiveFormat, archiveMembers, checkArchive } from '../archive/archive-reader';
import { FileProcessingError, type ImportMemberRef, type ImportReader, ImportRefusedError } from '../../core/ingest/ports';
import type { ImportSource } from '../../core/files/bulk-import';
import { bucketRefusal } from '../../core/files/import-sources';
import type { ObjectStore } from '../../core/ports';

interface SizedBucket {
  getWithMetadata(key: string): Promise<{ bytes: Uint8Array; metadata: Record<string, string> } | undefined>;
  userMetadata(key: string): Promise<Record<string, string> | undefined>;
  /** `maxFiles`: the listing may stop once it holds that many objects that are not folder markers. */
  listSized(prefix: string, options?: { maxFiles?: number }): Promise<Array<{ key: string; size: number; etag?: string }>>;
}

type ListedObject = { key: string; size: number; etag?: string };

export class SourceImportReader implements ImportReader {
  /** A prefix's listing from survey(), which the members() that follows walks (one listing per import, not two). */
  private readonly surveyed = new Map<string, Promise<ListedObject[]>>();

  constructor(
    private readonly artefacts: ObjectStore,
    private readonly bucket: (name: string) => SizedBucket,
    private readonly settings: ImportSettings,
  ) {}

  async survey(source: ImportSource, unchanged?: ReadonlyMap<string, string>): Promise<string[]> {
    if (source.kind === 's3') {
      const listing = this.objects(source);
      this.surveyed.set(listingKey(source), listing);
      try {
        return (await listing).map((object) => object.key.slice(source.prefix.length));
      } catch (error) {
        this.surveyed.delete(listingKey(source));
        throw error;
      }
    }
    const { bytes, format } = await this.archiveOf(source);
    return refusing(() => checkArchive(bytes, format, this.settings.archive, unchanged));
  }

  async *members(source: ImportSource, from: number): AsyncGenerator<ImportMemberRef> {
    if (source.kind === 's3') {
      const bucket = this.bucket(source.bucket);
      const limit = this.settings.archive.maxMemberBytes;
      const listing = this.surveyed.get(listingKey(source)) ?? this.objects(source);
      this.surveyed.delete(listingKey(source));
      for (const object of (await listing).slice(from)) {
        let read: Record<string, string> | undefined;
        yield {
          path: object.key.slice(source.prefix.length),
          ...(object.etag ? { etag: object.etag } : {}),
          size: object.size,
          load: async () => {
            if (object.size > limit) throw new FileProcessingError(`the object is ${object.size} bytes, over the limit of ${limit}`);
            const found = await bucket.getWithMetadata(object.key);
            if (!found) throw new FileProcessingError('the object was deleted during the import');
            read = found.metadata;
            return found.bytes;
          },
          userMetadata: async () => read ?? (await bucket.userMetadata(object.key)) ?? {},
        };
      }
      return;
    }
    const { bytes, format } = await this.archiveOf(source);
    let position = 0;
    const members = archiveMembers(bytes, format, this.settings.archive);
    for (;;) {
      const next = await refusing(() => members.next());
      if (next.done) return;
      if (position++ < from) continue;
      const member = next.value;
      // a zip member's recorded CRC-32 and size stand for its bytes as an ETag does: the same as at the last
      // import, the member is unchanged and is never decompressed
      const etag = member.fingerprint ? { etag: member.fingerprint } : {};
      yield { path: member.path, ...etag, size: member.size, load: () => readingMember(member.read) };
    }
  }

  /**
   * The objects to import: every key under the prefix that is not a folder marker, within the archive
   * limits (the listing stops past maxMembers; the listed sizes add up to at most maxTotalBytes).
   */
  private async objects(source: Extract<ImportSource, { kind: 's3' }>): Promise<ListedObject[]> {
    const refusal = bucketRefusal(this.settings, source.bucket);
    if (refusal) throw new ImportRefusedError(refusal);
    const { maxMembers, maxTotalBytes } = this.settings.archive;
    let listed: ListedObject[];
    try {
      listed = (await this.bucket(source.bucket).listSized(source.prefix, { maxFiles: maxMembers + 1 })).filter(
        (object) => !object.key.endsWith('/'),
      );
    } catch (error) {
      const name = (error as { name?: string }).name ?? '';
      if (/NoSuchBucket|AccessDenied|Forbidden/.test(name))
        throw new ImportRefusedError(`bucket '${source.bucket}' cannot be read: ${name}`);
      throw error;
    }
    if (listed.length > maxMembers) throw new ImportRefusedError(`the prefix holds more than ${maxMembers} objects`);
    const total = listed.reduce((sum, object) => sum + object.size, 0);
    if (total > maxTotalBytes)
      throw new ImportRefusedError(`the objects under the prefix are ${total} bytes, over the limit of ${maxTotalBytes}`);
    return listed;
  }

  private async archiveOf(source: Extract<ImportSource, { kind: 'archive' }>) {
    const bytes = await this.artefacts.get(source.key);
    if (!bytes) throw new ImportRefusedError('the uploaded archive is missing from storage; upload it again');
    const format = archiveFormat(source.name, bytes);
    if (!format) throw new ImportRefusedError(`'${source.name}' is not a .zip, .tar or .tar.gz archive`);
    return { bytes, format };
  }
}

const listingKey = (source: Extract<ImportSource, { kind: 's3' }>) => `${source.bucket}\u0000${source.prefix}`;

/** A member read after the walk moved on: a member it cannot read fails alone, with the reason. */
async function readingMember(read: () => Promise<Uint8Array>): Promise<Uint8Array> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ArchiveRefusedError) throw new FileProcessingError(error.message);
    throw error;
  }
}

async function refusing<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ArchiveRefusedError) throw new ImportRefusedError(error.message);
    throw error;
  }
}
