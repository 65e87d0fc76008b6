/**
 * Bytes to a string: the one charset decoder for uploaded files and fetched resources (pages, robots.txt,
 * sitemaps). A byte-order mark wins, then the charset the Content-Type declared, then a `<meta charset>`
 * (or `http-equiv` Content-Type) in the first 4 KB, then strict UTF-8, then UTF-16 without a BOM
 * (recognised by its zero bytes), then Windows-1252 (every byte is a character). An unknown label is
 * passed over, not trusted.
 *
 * Where the copies this replaces differed, the rules that lose no text won: strict UTF-8 with a legacy
 * fallback (the fetcher decoded undeclared non-UTF-8 pages as UTF-8 with replacement characters), and
 * the fetcher's 4 KB for the `<meta>` look-up (browsers read 1 KB; some pages are sloppier).
 */

export interface DecodedText {
  text: string;
  encoding: string;
}

export interface DecodeHints {
  /** The charset of the Content-Type header, when there was one. */
  declaredCharset?: string | null | undefined;
}

/** How far into the bytes a `<meta charset>` is looked for. */
const META_SNIFF_BYTES = 4096;

export function decodeText(bytes: Uint8Array, hints: DecodeHints = {}): DecodedText {
  const bom = decodeByBom(bytes);
  if (bom) return bom;
  for (const label of [hints.declaredCharset, metaCharset(bytes)]) {
    const declared = label ? decodeWithLabel(bytes, label) : null;
    if (declared) return declared;
  }
  const utf8 = decodeWithLabel(bytes, 'utf-8', true);
  if (utf8) return utf8;
  const utf16 = guessUtf16(bytes);
  if (utf16) return decodeWithLabel(bytes, utf16) ?? { text: '', encoding: utf16 };
  return decodeWithLabel(bytes, 'windows-1252') ?? { text: new TextDecoder().decode(bytes), encoding: 'utf-8' };
}

function decodeByBom(bytes: Uint8Array): DecodedText | null {
  const [a, b, c] = bytes;
  if (a === 0xef && b === 0xbb && c === 0xbf) return { text: new TextDecoder('utf-8').decode(bytes.subarray(3)), encoding: 'utf-8' };
  if (a === 0xff && b === 0xfe) return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), encoding: 'utf-16le' };
  if (a === 0xfe && b === 0xff) return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), encoding: 'utf-16be' };
  return null;
}

function decodeWithLabel(bytes: Uint8Array, label: string, fatal = false): DecodedText | null {
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(label.trim().toLowerCase(), { fatal });
  } catch {
    return null; // an unknown charset label: fall through to sniffing
  }
  try {
    return { text: decoder.decode(bytes), encoding: decoder.encoding };
  } catch {
    return null; // not valid in this encoding
  }
}

/** UTF-16 text of Latin script has a zero in every other byte; which side tells the byte order. */
function guessUtf16(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const sample = bytes.subarray(0, Math.min(bytes.length, 4096) & ~1);
  if (sample.length < 4) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < sample.length; i += 2) {
    if (sample[i] === 0) evenZeros++;
    if (sample[i + 1] === 0) oddZeros++;
  }
  const pairs = sample.length / 2;
  if (oddZeros > pairs * 0.4 && evenZeros < pairs * 0.05) return 'utf-16le';
  if (evenZeros > pairs * 0.4 && oddZeros < pairs * 0.05) return 'utf-16be';
  return null;
}

/** The `charset` parameter of a Content-Type value, lower-case, if any. */
export function charsetOf(contentType: string | null | undefined): string | undefined {
  const match = contentType?.match(/;\s*charset\s*=\s*["']?([^"';\s]+)/i);
  return match?.[1]?.toLowerCase();
}

/** The charset of `<meta charset=x>` or `<meta http-equiv=content-type content="...; charset=x">` near the top. */
function metaCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, META_SNIFF_BYTES));
  const match = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head);
  return match?.[1]?.toLowerCase();
}
