/**
 * Tells what a file is from its bytes (magic numbers, ZIP entries), not from its name. Text flavours
 * (HTML, Markdown, RTF, plain) are told apart later by text-flavour.ts, once the bytes are decoded.
 */
import type { ImageFormat } from './types';
import { isZip, openZip, readZipText, type ZipArchive } from './zip-entries';

type PackageKind = 'docx' | 'pptx' | 'xlsx' | 'odt' | 'odp' | 'ods' | 'epub';

export type Sniffed =
  | { family: 'pdf' }
  | { family: 'package'; kind: PackageKind }
  | { family: 'image'; format: ImageFormat }
  /** `hint` says which the container is; `either` when it may hold audio alone or a video (MP4, WebM, Ogg). */
  | { family: 'media'; container: string; hint: 'audio' | 'video' | 'either' }
  | { family: 'text' }
  /** A format recognised but not supported; `reason` says why, for a person. */
  | { family: 'unsupported'; reason: string }
  | { family: 'unknown'; reason: string };

export function sniffContent(bytes: Uint8Array): Sniffed {
  if (bytes.length === 0) return { family: 'unknown', reason: 'the file is empty' };
  if (startsWith(bytes, '%PDF-') || findAscii(bytes.subarray(0, 1024), '%PDF-') >= 0) return { family: 'pdf' };
  if (isZip(bytes)) return sniffZip(bytes);
  if (startsWithBytes(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
    return { family: 'unsupported', reason: LEGACY_OFFICE };
  }
  if (hasUtf16Bom(bytes)) return { family: 'text' }; // before MPEG audio, whose sync bytes FF FE resemble
  return sniffImage(bytes) ?? sniffMedia(bytes) ?? sniffText(bytes);
}

function hasUtf16Bom(bytes: Uint8Array): boolean {
  return startsWithBytes(bytes, [0xff, 0xfe]) || startsWithBytes(bytes, [0xfe, 0xff]);
}

const LEGACY_OFFICE =
  'legacy Microsoft Office files (.doc, .xls, .ppt) and password-protected Office files are not supported: ' +
  'save it as .docx, .xlsx or .pptx without a password';

function sniffImage(bytes: Uint8Array): Sniffed | null {
  const format = imageFormatOf(bytes);
  if (format) return { family: 'image', format };
  if (ftypBrand(bytes)?.match(/^(heic|heix|heim|heis|hevc|mif1|msf1|avif)$/)) {
    return { family: 'unsupported', reason: 'HEIC and AVIF images are not supported: convert it to PNG or JPEG' };
  }
  return null;
}

function imageFormatOf(bytes: Uint8Array): ImageFormat | null {
  if (startsWithBytes(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWithBytes(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, 'GIF87a') || startsWith(bytes, 'GIF89a')) return 'gif';
  if (startsWith(bytes, 'II*\u0000') || startsWith(bytes, 'MM\u0000*')) return 'tiff';
  if (startsWith(bytes, 'RIFF') && ascii(bytes, 8, 4) === 'WEBP') return 'webp';
  if (startsWith(bytes, 'BM') && bytes.length > 26 && bytes[6] === 0 && bytes[7] === 0 && bytes[8] === 0 && bytes[9] === 0) {
    return 'bmp';
  }
  return null;
}

function sniffMedia(bytes: Uint8Array): Sniffed | null {
  return sniffAudio(bytes) ?? sniffContainer(bytes) ?? sniffIsoMedia(bytes);
}

/** RIFF and AIFF files, and the audio formats known by their first bytes. */
function sniffAudio(bytes: Uint8Array): Sniffed | null {
  const riff = startsWith(bytes, 'RIFF') ? ascii(bytes, 8, 4) : null;
  if (riff === 'WAVE') return { family: 'media', container: 'wav', hint: 'audio' };
  if (riff === 'AVI ') return { family: 'media', container: 'avi', hint: 'video' };
  if (startsWith(bytes, 'FORM') && ['AIFF', 'AIFC'].includes(ascii(bytes, 8, 4))) return audio('aiff');
  // Signatures followed by a version or block byte, so text that merely starts with "ID3" or "fLaC" stays text.
  if (startsWith(bytes, 'ID3') && (bytes[3] ?? 9) <= 4 && bytes[4] === 0) return audio('mp3');
  if (startsWith(bytes, 'fLaC') && ((bytes[4] ?? 1) & 0x7f) === 0) return audio('flac');
  if (startsWith(bytes, '#!AMR')) return audio('amr');
  if (bytes[0] === 0xff && bytes[1] !== undefined && (bytes[1] & 0xe0) === 0xe0) return audio('mpeg-audio');
  return null;
}

/** The streaming containers: Ogg, Matroska, ASF, FLV, MPEG program and transport streams. */
function sniffContainer(bytes: Uint8Array): Sniffed | null {
  if (startsWith(bytes, 'OggS\u0000')) return { family: 'media', container: 'ogg', hint: 'either' };
  if (startsWithBytes(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return { family: 'media', container: 'matroska', hint: 'either' };
  if (startsWithBytes(bytes, [0x30, 0x26, 0xb2, 0x75])) return { family: 'media', container: 'asf', hint: 'either' };
  if (startsWith(bytes, 'FLV\u0001')) return { family: 'media', container: 'flv', hint: 'video' };
  if (startsWithBytes(bytes, [0, 0, 1, 0xba]) || startsWithBytes(bytes, [0, 0, 1, 0xb3])) {
    return { family: 'media', container: 'mpeg', hint: 'video' };
  }
  if (bytes.length > 564 && [0, 188, 376, 564].every((at) => bytes[at] === 0x47)) {
    return { family: 'media', container: 'mpeg-ts', hint: 'video' };
  }
  return null;
}

/** ISO base media files (MP4, M4A, QuickTime) by their `ftyp` brand. */
function sniffIsoMedia(bytes: Uint8Array): Sniffed | null {
  const brand = ftypBrand(bytes);
  if (brand === null) return null;
  if (/^M4[ABP] $/.test(brand)) return audio('mp4');
  return {
    family: 'media',
    container: brand === 'qt  ' ? 'quicktime' : 'mp4',
    hint: brand === 'qt  ' ? 'video' : 'either',
  };
}

function audio(container: string): Sniffed {
  return { family: 'media', container, hint: 'audio' };
}

function ftypBrand(bytes: Uint8Array): string | null {
  return bytes.length >= 12 && ascii(bytes, 4, 4) === 'ftyp' ? ascii(bytes, 8, 4) : null;
}

const ZIP_MIMETYPES: Record<string, PackageKind> = {
  'application/epub+zip': 'epub',
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.presentation': 'odp',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
};

function sniffZip(bytes: Uint8Array): Sniffed {
  const archive = openZip(bytes);
  if (!archive) return { family: 'unknown', reason: 'the file is a damaged or truncated ZIP archive' };
  const kind = packageKindOf(archive);
  if (kind) return { family: 'package', kind };
  return {
    family: 'unsupported',
    reason: 'a ZIP archive that is not a Word, PowerPoint, Excel, EPUB or OpenDocument file: upload its files one by one',
  };
}

function packageKindOf(archive: ZipArchive): PackageKind | null {
  const has = (name: string): boolean => archive.entries.has(name);
  if (has('word/document.xml')) return 'docx';
  if (has('ppt/presentation.xml')) return 'pptx';
  if (has('xl/workbook.xml')) return 'xlsx';
  const mimetype = readZipText(archive, 'mimetype')?.trim();
  if (mimetype && ZIP_MIMETYPES[mimetype]) return ZIP_MIMETYPES[mimetype];
  if (has('META-INF/container.xml') && [...archive.entries.keys()].some((name) => name.endsWith('.opf'))) return 'epub';
  return null;
}

/** Text when the first 8 KB has no NUL bytes (or about half, as UTF-16 has) and few other control bytes. */
function sniffText(bytes: Uint8Array): Sniffed {
  const sample = bytes.subarray(0, 8192);
  let controls = 0;
  let zeros = 0;
  for (const byte of sample) {
    if (byte === 0) zeros++;
    else if (byte < 9 || (byte > 13 && byte < 32 && byte !== 27)) controls++;
  }
  const utf16Like = zeros > sample.length * 0.3 && zeros < sample.length * 0.6;
  if ((zeros === 0 || utf16Like) && controls <= sample.length * 0.02) return { family: 'text' };
  return {
    family: 'unknown',
    reason: `unrecognised content: not a known document, image, audio or video format (it starts with ${hexPrefix(bytes)})`,
  };
}

function hexPrefix(bytes: Uint8Array): string {
  return [...bytes.subarray(0, 8)].map((byte) => byte.toString(16).padStart(2, '0')).join(' ');
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

function startsWith(bytes: Uint8Array, prefix: string): boolean {
  return ascii(bytes, 0, prefix.length) === prefix;
}

function startsWithBytes(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}

function findAscii(bytes: Uint8Array, needle: string): number {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(needle, 0, 'latin1');
}
