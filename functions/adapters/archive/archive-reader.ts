/**
 * Reading uploaded archives (`.zip`, `.tar`, `.tar.gz`) for bulk import, with yauzl and tar-stream.
 *
 * An archive is walked twice. The first walk decompresses every member and throws the bytes away, counting
 * what really comes out of the streams (never the sizes the headers declare): member count, member size,
 * total size, paths and the decompression ratio are all checked before anything is kept. Only an archive
 * that passes is walked again to hand out its members. A zip member is decompressed on the second walk only
 * when it is read: its fingerprint (the CRC-32 and size its entry records) lets an import see it unchanged
 * without reading it. A member the caller knows by path and fingerprint (unchanged since the last import,
 * whose walks checked its bytes) is not decompressed by the first walk either: it is never read, and its
 * recorded size counts toward the totals.
 */
import { InternalError } from '../../core/errors';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { extract as tarExtract } from 'tar-stream';
import yauzl from 'yauzl';

import { type ArchiveFormat, archiveFormatOfName } from '../../core/files/file-kinds';

export type { ArchiveFormat };

export interface ArchiveLimits {
  /** Bytes of the archive itself. */
  maxArchiveBytes: number;
  maxMembers: number;
  /** Bytes of one member once decompressed. */
  maxMemberBytes: number;
  /** Bytes of all members once decompressed. */
  maxTotalBytes: number;
  /** Decompressed bytes per archive byte, for the archive and for each zip member (beyond RATIO_FLOOR_BYTES). */
  maxRatio: number;
}

/** Below this many decompressed bytes no ratio is held against an archive (small text compresses well). */
const RATIO_FLOOR_BYTES = 1 << 20;

/** An archive refused, with the reason a person can act on. */
export class ArchiveRefusedError extends InternalError {
  override readonly name: string = 'ArchiveRefusedError';
}

export interface ArchiveMember {
  /** The member's path inside the archive, `/`-separated, without a leading `./`. */
  path: string;
  /** A zip member's recorded CRC-32 and size (`zip-crc32:<hex>:<bytes>`); tar records none. */
  fingerprint?: string;
  /** Its bytes once decompressed: read already (tar), or as its zip entry records them. */
  size: number;
  /** The member's bytes, decompressed (and checked against the limits again) when called. */
  read(): Promise<Uint8Array>;
}

/** The format from the name, else from the first bytes; undefined when it is none of the three. */
export function archiveFormat(name: string, bytes?: Uint8Array): ArchiveFormat | undefined {
  const named = archiveFormatOfName(name);
  if (named || !bytes) return named;
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) return 'zip';
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return 'tar.gz';
  if (Buffer.from(bytes.subarray(257, 262)).toString('latin1') === 'ustar') return 'tar';
  return undefined;
}

/**
 * Checks every limit on the real streamed sizes, keeping nothing; answers the member paths in order.
 * `known`: fingerprints by member path of members that will not be read (the same as at the last import).
 */
export async function checkArchive(
  bytes: Uint8Array,
  format: ArchiveFormat,
  limits: ArchiveLimits,
  known: ReadonlyMap<string, string> = new Map(),
): Promise<string[]> {
  const paths: string[] = [];
  for await (const member of walk(bytes, format, limits, { keep: false, known })) paths.push(member.path);
  return paths;
}

/** The members, in archive order, each checked again as it is read (call checkArchive first). */
export async function* archiveMembers(bytes: Uint8Array, format: ArchiveFormat, limits: ArchiveLimits): AsyncGenerator<ArchiveMember> {
  yield* walk(bytes, format, limits, { keep: true, known: new Map() });
}

/** What both libraries' member streams offer (node streams for zip, streamx streams for tar). */
interface MemberStream extends AsyncIterable<Buffer> {
  resume(): unknown;
  destroy(): unknown;
}

interface RawEntry {
  path: string;
  kind: 'file' | 'directory' | 'other';
  /** The member's stream (a zip member's is opened on the first call). */
  stream: () => Promise<MemberStream>;
  fingerprint?: string;
  /** Compressed bytes of a zip member (tar members are compressed as a whole, if at all). */
  compressedSize?: number;
  /** The bytes a zip member's entry records (checked against the stream when it is read). */
  recordedSize?: number;
}

type WalkOptions = { keep: boolean; known: ReadonlyMap<string, string> };

interface WalkContext {
  limits: ArchiveLimits;
  totals: { members: number; bytes: number };
  archiveBytes: number;
  /** Member paths walked so far: a path twice would be two files with one sourceKey. */
  seen: Set<string>;
}

async function* walk(bytes: Uint8Array, format: ArchiveFormat, limits: ArchiveLimits, options: WalkOptions): AsyncGenerator<ArchiveMember> {
  checkArchiveSize(bytes.length, limits);
  const raw = Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)]);
  yield* walkEntries(format === 'zip' ? zipEntries(bytes, limits) : tarEntries(raw, format === 'tar.gz'), bytes.length, limits, options);
}

/** Checks every entry of an archive as it streams in (bulk import's and a restore's walk). */
export async function* walkEntries(entries: AsyncIterable<RawEntry>, archiveBytes: number, limits: ArchiveLimits, options: WalkOptions) {
  const context: WalkContext = { limits, totals: { members: 0, bytes: 0 }, archiveBytes, seen: new Set() };
  for await (const entry of entries) {
    const path = await admitEntry(entry, context);
    if (path !== undefined) yield await memberOf(entry, path, options, context);
  }
}

/**
 * The entry's checked path, counted as a member; undefined for a directory (skipped). Refuses a path
 * walked before, links, devices and too many members.
 */
async function admitEntry(entry: RawEntry, context: WalkContext): Promise<string | undefined> {
  if (entry.kind === 'directory') {
    (await entry.stream()).resume();
    return undefined;
  }
  const path = checkMemberPath(entry.path);
  if (context.seen.has(path)) {
    (await entry.stream()).destroy();
    throw new ArchiveRefusedError(`member path '${path.slice(0, 200)}' appears twice`);
  }
  context.seen.add(path);
  if (entry.kind !== 'file') {
    (await entry.stream()).destroy();
    throw new ArchiveRefusedError(`member '${path}' is a link or a device; only regular files can be imported`);
  }
  context.totals.members += 1;
  if (context.totals.members > context.limits.maxMembers) {
    (await entry.stream()).destroy();
    throw new ArchiveRefusedError(`the archive holds more than ${context.limits.maxMembers} members`);
  }
  return path;
}

/** A member as the walk hands it out: unchanged (never read), read on demand (a zip member kept), or read now. */
async function memberOf(
  entry: RawEntry,
  path: string,
  { keep, known }: { keep: boolean; known: ReadonlyMap<string, string> },
  context: WalkContext,
): Promise<ArchiveMember> {
  const fingerprint = entry.fingerprint ? { fingerprint: entry.fingerprint } : {};
  if (!keep && entry.fingerprint && known.get(path) === entry.fingerprint) {
    checkTotals(context, entry.recordedSize ?? 0); // unchanged: never read, so never decompressed
    return { path, ...fingerprint, size: entry.recordedSize ?? 0, read: async () => new Uint8Array() };
  }
  // a zip member is read on demand (random access); tar members only in order, so now
  if (keep && entry.fingerprint) {
    return { path, ...fingerprint, size: entry.recordedSize ?? 0, read: () => readMember(entry, path, true, context) };
  }
  const data = await readMember(entry, path, keep, context);
  return { path, ...fingerprint, size: data.length, read: async () => data };
}

/** Reads one member's stream, checking the limits at every chunk; keeps the bytes only when asked. */
async function readMember(entry: RawEntry, path: string, keep: boolean, context: WalkContext): Promise<Uint8Array> {
  const { limits } = context;
  const chunks: Buffer[] = [];
  let size = 0;
  let stream: MemberStream | undefined;
  try {
    stream = await entry.stream();
    for await (const chunk of stream) {
      size += chunk.length;
      if (size > limits.maxMemberBytes) refuse(`member '${path}' is larger than ${limits.maxMemberBytes} bytes once decompressed`);
      if (entry.compressedSize !== undefined && size > RATIO_FLOOR_BYTES && size > limits.maxRatio * Math.max(1, entry.compressedSize)) {
        refuse(`member '${path}' decompresses more than ${limits.maxRatio} times its compressed size (a zip bomb?)`);
      }
      checkTotals(context, chunk.length);
      if (keep) chunks.push(chunk);
    }
  } catch (error) {
    stream?.destroy();
    if (error instanceof ArchiveRefusedError) throw error;
    throw new ArchiveRefusedError(`member '${path}' cannot be read: ${(error as Error).message}`);
  }
  return keep ? Buffer.concat(chunks) : new Uint8Array();
}

/** Adds decompressed bytes to the archive's totals, refusing it past the total size or ratio. */
function checkTotals({ limits, totals, archiveBytes }: WalkContext, bytes: number): void {
  totals.bytes += bytes;
  if (totals.bytes > limits.maxTotalBytes) refuse(`the members are larger than ${limits.maxTotalBytes} bytes once decompressed`);
  if (totals.bytes > RATIO_FLOOR_BYTES && totals.bytes > limits.maxRatio * archiveBytes) {
    refuse(`the archive decompresses to more than ${limits.maxRatio} times its size (a zip bomb?)`);
  }
}

export function checkArchiveSize(bytes: number, limits: ArchiveLimits): void {
  if (bytes > limits.maxArchiveBytes) refuse(`the archive is ${bytes} bytes, over the limit of ${limits.maxArchiveBytes}`);
}

function refuse(reason: string): never {
  throw new ArchiveRefusedError(reason);
}

/** A member path stays inside the archive: relative, no `..` segment, no drive, no control characters. */
function checkMemberPath(raw: string): string {
  const path = raw.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  const problem = memberPathProblem(path);
  if (problem) throw new ArchiveRefusedError(`member path '${raw.slice(0, 200)}' ${problem}`);
  return path;
}

function memberPathProblem(path: string): string | null {
  if (!path) return 'is empty';
  if (path.startsWith('/')) return 'is absolute';
  if (/^[A-Za-z]:/.test(path)) return 'names a drive';
  if (path.includes('\\')) return 'contains a backslash';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f]/.test(path)) return 'contains control characters';
  if (path.split('/').some((segment) => segment === '..')) return 'leaves the archive (a .. segment)';
  return null;
}

async function* zipEntries(bytes: Uint8Array, limits: ArchiveLimits): AsyncGenerator<RawEntry> {
  const zip = await openZip(bytes);
  try {
    if (zip.entryCount > limits.maxMembers) {
      throw new ArchiveRefusedError(`the archive holds ${zip.entryCount} entries, over the limit of ${limits.maxMembers}`);
    }
    for (;;) {
      const entry = await nextZipEntry(zip);
      if (!entry) return;
      const mode = (entry.externalFileAttributes >>> 16) & 0o170000;
      const directory = entry.fileName.endsWith('/');
      const kind = directory ? 'directory' : mode === 0 || mode === 0o100000 ? 'file' : 'other';
      if (entry.isEncrypted()) throw new ArchiveRefusedError(`member '${entry.fileName}' is encrypted`);
      const stream = () => (kind === 'file' ? zip.openReadStreamPromise(entry) : Promise.resolve(Readable.from([])));
      const fingerprint = `zip-crc32:${entry.crc32.toString(16).padStart(8, '0')}:${entry.uncompressedSize}`;
      yield { path: entry.fileName, kind, stream, fingerprint, compressedSize: entry.compressedSize, recordedSize: entry.uncompressedSize };
    }
  } finally {
    // members handed out are read later: a zip over a buffer holds no file, so closing it can wait for them
    if (zip.entriesRead < zip.entryCount) zip.close();
  }
}

function openZip(bytes: Uint8Array): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length),
      { lazyEntries: true, validateEntrySizes: true, autoClose: false },
      (error, zip) => (error ? reject(new ArchiveRefusedError(`the archive is not a readable zip: ${error.message}`)) : resolve(zip)),
    );
  });
}

function nextZipEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | undefined> {
  return new Promise((resolve, reject) => {
    const cleanup = () => zip.removeAllListeners('entry').removeAllListeners('end').removeAllListeners('error');
    zip.once('entry', (entry: yauzl.Entry) => (cleanup(), resolve(entry)));
    zip.once('end', () => (cleanup(), resolve(undefined)));
    zip.once('error', (error: Error) => (cleanup(), reject(new ArchiveRefusedError(`the archive is refused: ${error.message}`))));
    zip.readEntry();
  });
}

export async function* tarEntries(source: Readable, gzipped: boolean): AsyncGenerator<RawEntry> {
  const extract = tarExtract();
  const input = gzipped ? source.pipe(createGunzip()) : source;
  input.on('error', (error: Error) => extract.destroy(new ArchiveRefusedError(`the archive is not a readable tar.gz: ${error.message}`)));
  input.pipe(extract);
  try {
    for await (const entry of extract) {
      const type = entry.header.type ?? 'file';
      const kind = type === 'directory' ? 'directory' : type === 'file' || type === 'contiguous-file' ? 'file' : 'other';
      yield { path: entry.header.name, kind, stream: async () => entry as MemberStream }; // streamx yields Buffers
    }
  } catch (error) {
    if (error instanceof ArchiveRefusedError) throw error;
    throw new ArchiveRefusedError(`the archive is not a readable tar: ${(error as Error).message}`);
  } finally {
    input.unpipe(extract);
    source.destroy();
    extract.destroy();
  }
}
