/**
 * A minimal ZIP reader: lists entry names from the central directory and inflates one small entry.
 * Enough to tell a DOCX from a PPTX or an EPUB and to read a metadata part; parsers get the whole file,
 * once `measureInflated` has counted what its entries really inflate to (declared sizes can lie).
 */
import { createInflateRaw, inflateRawSync } from 'node:zlib';

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const MAX_ENTRY_BYTES = 1 << 20;

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

export interface ZipArchive {
  entries: Map<string, ZipEntry>;
  bytes: Uint8Array;
}

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5);
}

/** Reads the central directory, or returns null when the archive is truncated or not a ZIP. */
export function openZip(bytes: Uint8Array): ZipArchive | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEndOfDirectory(view);
  if (end < 0) return null;
  const count = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  const entries = new Map<string, ZipEntry>();
  const decoder = new TextDecoder();
  for (let i = 0; i < count; i++) {
    if (offset + 46 > view.byteLength || view.getUint32(offset, true) !== DIRECTORY_ENTRY) return null;
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    const name = decoder.decode(bytes.subarray(offset + 46, offset + 46 + nameLength));
    entries.set(name, {
      name,
      method: view.getUint16(offset + 10, true),
      compressedSize: view.getUint32(offset + 20, true),
      size: view.getUint32(offset + 24, true),
      localHeaderOffset: view.getUint32(offset + 42, true),
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return { entries, bytes };
}

function findEndOfDirectory(view: DataView): number {
  const earliest = Math.max(0, view.byteLength - 22 - 0xffff);
  for (let at = view.byteLength - 22; at >= earliest; at--) {
    if (view.getUint32(at, true) === END_OF_DIRECTORY) return at;
  }
  return -1;
}

/** The text of a small stored or deflated entry, or null when it is absent, too large or unreadable. */
export function readZipText(archive: ZipArchive, name: string): string | null {
  const entry = archive.entries.get(name);
  if (!entry || entry.size > MAX_ENTRY_BYTES) return null;
  const data = entryData(archive, entry);
  if (!data) return null;
  try {
    if (entry.method === 0) return new TextDecoder().decode(data);
    if (entry.method === 8) return new TextDecoder().decode(inflateRawSync(data, { maxOutputLength: MAX_ENTRY_BYTES }));
  } catch {
    return null; // a damaged entry reads as absent; the parser reports the damage
  }
  return null;
}

/** What a package's entries inflate to, counted by inflating them; stops counting past `budget`. */
export interface InflatedSize {
  bytes: number;
  /** True when counting stopped at the budget: the entries inflate to more. */
  overBudget: boolean;
}

/**
 * Inflates every entry of `archive` as a stream (64 KB at a time, the output dropped) and counts the real
 * bytes, stopping once they pass `budget`. Entries of other methods count their stored bytes.
 */
export async function measureInflated(archive: ZipArchive, budget: number): Promise<InflatedSize> {
  let total = 0;
  for (const entry of archive.entries.values()) {
    const data = entryData(archive, entry);
    if (!data) continue;
    total += entry.method === 8 ? await inflatedLength(data, budget - total) : data.length;
    if (total > budget) return { bytes: total, overBudget: true };
  }
  return { bytes: total, overBudget: false };
}

/** The compressed bytes of an entry (after its local header), or null when the header is damaged. */
function entryData(archive: ZipArchive, entry: ZipEntry): Uint8Array | null {
  const { bytes } = archive;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localHeaderOffset;
  if (at + 30 > view.byteLength || view.getUint32(at, true) !== LOCAL_HEADER) return null;
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  return bytes.subarray(start, start + entry.compressedSize);
}

/** Bytes `data` inflates to, counting at most `limit` + 1; a damaged stream counts what came out. */
function inflatedLength(data: Uint8Array, limit: number): Promise<number> {
  return new Promise((resolve) => {
    let count = 0;
    const inflate = createInflateRaw({ chunkSize: 64 * 1024 });
    const finish = (): void => {
      inflate.removeAllListeners();
      inflate.on('error', () => undefined);
      inflate.destroy();
      resolve(count);
    };
    inflate.on('data', (chunk: Buffer) => {
      count += chunk.length;
      if (count > limit) finish();
    });
    inflate.once('end', finish);
    inflate.once('error', finish);
    inflate.end(data);
  });
}
