/** Plain text files (.txt, .md, .csv, .json and the like): bytes to a string, refusing binary content. */
import { FileProcessingError } from './ports';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes UTF-8 (with or without BOM) or UTF-16 with a BOM; anything else with NUL bytes is not text. */
export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  if (body.includes(0)) throw new FileProcessingError('the file is binary, not text; upload it with its own fileType');
  try {
    return UTF8.decode(body);
  } catch {
    return new TextDecoder('windows-1252').decode(body); // legacy single-byte text: every byte maps to a character
  }
}

/** True when the bytes read as text (used to sniff `other` files). */
export function looksLikeText(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, 4096);
  if (sample.includes(0) && !(sample[0] === 0xff || sample[0] === 0xfe)) return false;
  let control = 0;
  for (const byte of sample) if (byte < 9 || (byte > 13 && byte < 32)) control += 1;
  return control <= sample.length / 100;
}
