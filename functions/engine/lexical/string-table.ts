/**
 * Lists of strings as compact bytes, for the binary formats a cold container loads (lexical segments,
 * retrieval indexes): no JSON to parse, no quoting to undo. Little-endian, 4-byte aligned.
 *
 * | size | field |
 * |---|---|
 * | 4 | u32 count N |
 * | 4 | u32 byte length B of the character part |
 * | 4 | u32 encoding: 0 UTF-8, 1 UTF-16LE (only when a string holds a lone surrogate, which UTF-8 cannot) |
 * | 4N | u32 end of each string: in UTF-16 code units (string table) or in bytes (text table) |
 * | B | the strings' characters, one after the other |
 * | 0–3 | zero padding to a multiple of 4 |
 *
 * A string table is decoded whole (one UTF-8 decode, then slices of the result). A text table is decoded
 * one string at a time, when it is asked for (`PackedTexts`): a chunk's text is decoded for the hits a query
 * returns, not when the index is loaded. Every string round-trips exactly, lone surrogates included.
 */

const HEAD = 12;
const UTF8 = 0;
const UTF16 = 1;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');

/** Strings readable one by one, by position: an array, or texts decoded on demand. */
export interface StringList {
  readonly length: number;
  at(index: number): string | undefined;
}

/** Encodes `strings` as a string table (ends in code units). */
export function encodeStringTable(strings: readonly string[]): Uint8Array {
  const ends = new Uint32Array(strings.length);
  let end = 0;
  strings.forEach((value, index) => {
    end += value.length;
    ends[index] = end;
  });
  const joined = strings.join('');
  return LONE_SURROGATE.test(joined) ? table(ends, utf16(joined), UTF16) : table(ends, encoder.encode(joined), UTF8);
}

/** Encodes `texts` as a text table (ends in bytes), each text readable on its own. */
export function encodeTextTable(texts: StringList): Uint8Array {
  const parts: Uint8Array[] = [];
  const ends = new Uint32Array(texts.length);
  const all = Array.from({ length: texts.length }, (_, index) => texts.at(index) ?? '');
  const encoding = all.some((text) => LONE_SURROGATE.test(text)) ? UTF16 : UTF8;
  let end = 0;
  for (const [index, text] of all.entries()) {
    const bytes = encoding === UTF16 ? utf16(text) : encoder.encode(text);
    parts.push(bytes);
    end += bytes.length;
    ends[index] = end;
  }
  const utf8 = new Uint8Array(end);
  let at = 0;
  for (const bytes of parts) {
    utf8.set(bytes, at);
    at += bytes.length;
  }
  return table(ends, utf8, encoding);
}

/** A table read from `bytes` at `offset` (4-aligned within its buffer): its ends, its UTF-8 bytes and its size. */
interface RawTable {
  ends: Uint32Array;
  utf8: Uint8Array;
  encoding: number;
  size: number;
}

function readTable(bytes: Uint8Array, offset: number, count: number | undefined, name: string): RawTable {
  if (offset + HEAD > bytes.length) throw tableError(name, 'truncated');
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, HEAD);
  const found = view.getUint32(0, true);
  const utf8Length = view.getUint32(4, true);
  const encoding = view.getUint32(8, true);
  if (encoding !== UTF8 && encoding !== UTF16) throw tableError(name, `unknown encoding ${encoding}`);
  if (count !== undefined && found !== count) throw tableError(name, `holds ${found} strings, expected ${count}`);
  const size = align4(HEAD + 4 * found + utf8Length);
  if (offset + size > bytes.length) throw tableError(name, 'truncated');
  if ((bytes.byteOffset + offset) % 4 !== 0) throw tableError(name, 'not aligned');
  const ends = new Uint32Array(bytes.buffer, bytes.byteOffset + offset + HEAD, found);
  const utf8 = bytes.subarray(offset + HEAD + 4 * found, offset + HEAD + 4 * found + utf8Length);
  let previous = 0;
  for (const end of ends) {
    if (end < previous) throw tableError(name, 'ends decrease');
    previous = end;
  }
  return { ends, utf8, encoding, size };
}

/** Decodes a string table at `offset` (of `count` strings when given); answers the strings and the table's size. */
export function decodeStringTable(bytes: Uint8Array, offset: number, name: string, count?: number): { strings: string[]; size: number } {
  const { ends, utf8, encoding, size } = readTable(bytes, offset, count, name);
  const joined = decodeAs(encoding, utf8);
  if ((ends[ends.length - 1] ?? 0) !== joined.length) throw tableError(name, 'ends do not match its text');
  const strings = new Array<string>(ends.length);
  let start = 0;
  for (let index = 0; index < ends.length; index++) {
    const end = ends[index] ?? start;
    strings[index] = joined.slice(start, end);
    start = end;
  }
  return { strings, size };
}

/** A text table's texts, each decoded when asked for (not kept: a query asks for a few). */
export class PackedTexts implements StringList {
  readonly length: number;
  private readonly ends: Uint32Array;
  private readonly utf8: Uint8Array;
  private readonly encoding: number;

  constructor(bytes: Uint8Array, name: string, count?: number) {
    const table = readTable(bytes, 0, count, name);
    if ((table.ends[table.ends.length - 1] ?? 0) !== table.utf8.length) throw tableError(name, 'ends do not match its bytes');
    this.ends = table.ends;
    this.utf8 = table.utf8;
    this.encoding = table.encoding;
    this.length = table.ends.length;
  }

  at(index: number): string | undefined {
    if (!(index >= 0 && index < this.length)) return undefined;
    const start = index === 0 ? 0 : (this.ends[index - 1] ?? 0);
    return decodeAs(this.encoding, this.utf8.subarray(start, this.ends[index] ?? start));
  }
}

function decodeAs(encoding: number, bytes: Uint8Array): string {
  if (encoding === UTF8) return decoder.decode(bytes);
  const units = new Uint16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  let text = '';
  for (let at = 0; at < units.length; at += 8192) text += String.fromCharCode(...units.subarray(at, at + 8192));
  return text;
}

/** A string's UTF-16 code units as little-endian bytes: lossless for any string. */
function utf16(text: string): Uint8Array {
  const units = new Uint16Array(text.length);
  for (let index = 0; index < text.length; index++) units[index] = text.charCodeAt(index);
  return new Uint8Array(units.buffer);
}

function table(ends: Uint32Array, utf8: Uint8Array, encoding: number): Uint8Array {
  const out = new Uint8Array(align4(HEAD + ends.byteLength + utf8.length));
  const view = new DataView(out.buffer);
  view.setUint32(0, ends.length, true);
  view.setUint32(4, utf8.length, true);
  view.setUint32(8, encoding, true);
  out.set(new Uint8Array(ends.buffer, ends.byteOffset, ends.byteLength), HEAD);
  out.set(utf8, HEAD + ends.byteLength);
  return out;
}

export function align4(offset: number): number {
  return Math.ceil(offset / 4) * 4;
}

function tableError(name: string, detail: string): Error {
  return new Error(`Invalid string table ${name}: ${detail}`);
}
