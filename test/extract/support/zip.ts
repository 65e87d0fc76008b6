/** Builds small ZIP archives (stored or deflated entries) for Office, OpenDocument and EPUB fixtures. */
import { crc32, deflateRawSync } from 'node:zlib';

export type ZipEntries = Array<[name: string, content: string | Uint8Array]>;

export function buildZip(entries: ZipEntries, options: { deflate?: boolean } = {}): Uint8Array {
  const locals: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of entries) {
    const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
    const deflate = options.deflate === true && name !== 'mimetype';
    const stored = deflate ? deflateRawSync(data) : data;
    const nameBytes = Buffer.from(name, 'utf8');
    const fields = { method: deflate ? 8 : 0, crc: crc32(data), compressed: stored.length, size: data.length };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeCommon(local, 4, fields, nameBytes.length);
    locals.push(local, nameBytes, stored);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    writeCommon(central, 6, fields, nameBytes.length);
    central.writeUInt32LE(offset, 42);
    directory.push(central, nameBytes);
    offset += local.length + nameBytes.length + stored.length;
  }
  const directorySize = directory.reduce((sum, part) => sum + part.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directorySize, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, ...directory, end]));
}

/** Version needed, flags, method, time, date, CRC, sizes and name length: shared by local and central headers. */
function writeCommon(
  header: Buffer,
  at: number,
  fields: { method: number; crc: number; compressed: number; size: number },
  nameLength: number,
): void {
  header.writeUInt16LE(20, at);
  header.writeUInt16LE(0, at + 2);
  header.writeUInt16LE(fields.method, at + 4);
  header.writeUInt16LE(0, at + 6);
  header.writeUInt16LE(0x21, at + 8);
  header.writeUInt32LE(fields.crc, at + 10);
  header.writeUInt32LE(fields.compressed, at + 14);
  header.writeUInt32LE(fields.size, at + 18);
  header.writeUInt16LE(nameLength, at + 22);
}
