/**
 * Export archives (`.kmem.tar.gz`) in the artefact bucket: written as a gzipped tar streamed into a
 * multipart upload (a member goes out as it is added, so an archive never sits whole in memory), and read
 * back as it streams in, every member checked by bulk import's guards (paths, member count and sizes,
 * decompression ratio). A damaged, truncated or hostile archive is a BadRequestError naming the problem.
 */
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { pack as tarPack } from 'tar-stream';
import { BadRequestError } from '../../core/errors';
import type { ObjectStore } from '../../core/ports';
import type { ArchiveWriter, PortableArchives, PortableMember } from '../../core/portable/ports';
import { type ArchiveLimits, ArchiveRefusedError, checkArchiveSize, tarEntries, walkEntries } from './archive-reader';
import { Readable } from 'node:stream';

/** Every member's time: an archive of the same memory is the same bytes, whenever it is written. */
const MEMBER_TIME = new Date(0);

export class ObjectStoreArchives implements PortableArchives {
  constructor(
    private readonly objects: ObjectStore,
    private readonly limits: ArchiveLimits,
  ) {}

  create(key: string): ArchiveWriter {
    return new StreamedArchive(this.objects, key);
  }

  async *open(key: string): AsyncGenerator<PortableMember> {
    const info = await this.objects.head(key);
    const stream = info && (await this.objects.getStream(key));
    if (!info || !stream) throw new BadRequestError(`archiveKey: no archive is stored under '${key}'`);
    try {
      checkArchiveSize(info.size, this.limits);
      const members = walkEntries(tarEntries(Readable.from(stream), true), info.size, this.limits, { keep: true, known: new Map() });
      for await (const member of members) yield { path: member.path, data: await member.read() };
    } catch (error) {
      if (error instanceof ArchiveRefusedError) throw new BadRequestError(`archive refused: ${error.message}`);
      throw error;
    }
  }
}

class StreamedArchive implements ArchiveWriter {
  private readonly pack = tarPack();
  private readonly gzip = createGzip();
  private readonly upload: Promise<number>;

  constructor(
    private readonly objects: ObjectStore,
    private readonly key: string,
  ) {
    this.pack.pipe(this.gzip);
    this.upload = objects.putStream(key, this.gzip, 'application/gzip');
    this.upload.catch(() => undefined); // observed by add, close and abort
  }

  async add(path: string, data: string | Uint8Array): Promise<void> {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    await new Promise<void>((resolve, reject) => {
      this.pack.entry({ name: path, size: bytes.length, mtime: MEMBER_TIME, mode: 0o644 }, bytes, (error) =>
        error ? reject(error) : resolve(),
      );
    });
    // hold the writer while the upload is behind (memory stays at about a member and a part)
    if (this.gzip.writableNeedDrain) await Promise.race([once(this.gzip, 'drain'), this.upload.then(() => undefined)]);
  }

  async close(): Promise<number> {
    this.pack.finalize();
    return this.upload;
  }

  async abort(): Promise<void> {
    this.pack.destroy();
    this.gzip.destroy();
    await this.upload.catch(() => undefined);
    await this.objects.delete(this.key);
  }
}
