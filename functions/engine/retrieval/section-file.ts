/**
 * A small binary container: named byte sections behind a JSON header. Used for vector segments and
 * whole retrieval indexes. Little-endian.
 *
 * | offset | size | field |
 * |---|---|---|
 * | 0 | 4 | magic (4 ASCII characters, per format) |
 * | 4 | 4 | u32 format version |
 * | 8 | 4 | u32 header length H |
 * | 12 | H | UTF-8 JSON `{header, sections: [{name, offset, length}]}` (offsets from the file start) |
 * | … | | sections, each starting at a multiple of 8 |
 *
 * Sections start at multiples of 8 from the file's start, so when the bytes read start at a multiple of 8
 * in their buffer (as a buffer read whole does) each section is a view of them, aligned for typed arrays,
 * and a large index is not copied once more on load; otherwise each is copied into its own buffer.
 * The sections then share the bytes read: neither is written after (a loaded index is immutable).
 */

export interface SectionFile {
  /** The format version the file was written in. */
  version: number;
  header: unknown;
  sections: Map<string, Uint8Array>;
}

interface SectionEntry {
  name: string;
  offset: number;
  length: number;
}

/** Encodes `header` and `sections` with `magic` and `version`. */
export function writeSections(magic: string, version: number, header: unknown, sections: Record<string, Uint8Array>): Uint8Array {
  const names = Object.keys(sections);
  const entries: SectionEntry[] = names.map((name) => ({ name, offset: 0, length: sections[name]?.length ?? 0 }));
  let json = encodeHeader(header, entries);
  // Offsets depend on the header's length, which depends on the offsets' digits: settle in a few passes.
  for (let pass = 0; pass < 4; pass++) {
    let offset = align8(12 + json.length);
    for (const entry of entries) {
      entry.offset = offset;
      offset = align8(offset + entry.length);
    }
    const next = encodeHeader(header, entries);
    if (next.length === json.length) {
      json = next;
      break;
    }
    json = next;
  }
  const last = entries[entries.length - 1];
  const out = new Uint8Array(last ? last.offset + last.length : align8(12 + json.length));
  out.set(new TextEncoder().encode(magic).subarray(0, 4), 0);
  const view = new DataView(out.buffer);
  view.setUint32(4, version, true);
  view.setUint32(8, json.length, true);
  out.set(json, 12);
  for (const entry of entries) out.set(sections[entry.name] ?? new Uint8Array(0), entry.offset);
  return out;
}

/** Decodes bytes written by `writeSections`; throws on another magic, a version not in `versions` or truncation. */
export function readSections(bytes: Uint8Array, magic: string, versions: number | readonly number[]): SectionFile {
  if (bytes.length < 12 || new TextDecoder().decode(bytes.subarray(0, 4)) !== magic) throw formatError(magic, 'wrong magic');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const found = view.getUint32(4, true);
  if (!(typeof versions === 'number' ? [versions] : versions).includes(found)) throw formatError(magic, `unsupported version ${found}`);
  const length = view.getUint32(8, true);
  if (12 + length > bytes.length) throw formatError(magic, 'truncated header');
  const parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(12, 12 + length))) as {
    header?: unknown;
    sections?: SectionEntry[];
  };
  const sections = new Map<string, Uint8Array>();
  const aligned = bytes.byteOffset % 8 === 0;
  for (const entry of parsed.sections ?? []) {
    if (entry.offset + entry.length > bytes.length) throw formatError(magic, `section ${entry.name} truncated`);
    const end = entry.offset + entry.length;
    sections.set(entry.name, aligned && entry.offset % 8 === 0 ? bytes.subarray(entry.offset, end) : bytes.slice(entry.offset, end));
  }
  return { version: found, header: parsed.header, sections };
}

/** The bytes of a typed array (a view, no copy). */
export function bytesOf(array: ArrayBufferView): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

/** A section as a typed array of `count` elements; throws when missing or of the wrong size. */
export function sectionArray<T>(
  file: SectionFile,
  name: string,
  make: (buffer: ArrayBufferLike, offset: number, length: number) => T,
  elementBytes: number,
  count: number,
): T {
  const bytes = file.sections.get(name);
  if (!bytes || bytes.length !== elementBytes * count) throw new Error(`Invalid container: section ${name} missing or of the wrong size`);
  return make(bytes.buffer, bytes.byteOffset, count);
}

function encodeHeader(header: unknown, sections: SectionEntry[]): Uint8Array {
  return new TextEncoder().encode(JSON.stringify({ header, sections }));
}

function align8(offset: number): number {
  return Math.ceil(offset / 8) * 8;
}

function formatError(magic: string, detail: string): Error {
  return new Error(`Invalid ${magic} container: ${detail}`);
}
