/**
 * Bytes to text: the byte-order mark first, then the charset the server declared, then (for HTML) a
 * <meta> charset near the top of the page, and UTF-8 when nothing says otherwise or the label is unknown.
 */

const BOMS: readonly { bytes: readonly number[]; encoding: string }[] = [
  { bytes: [0xef, 0xbb, 0xbf], encoding: 'utf-8' },
  { bytes: [0xfe, 0xff], encoding: 'utf-16be' },
  { bytes: [0xff, 0xfe], encoding: 'utf-16le' },
];

/** How far into a page a <meta charset> is looked for (browsers look at 1024 bytes; some pages are sloppy). */
const META_SNIFF_BYTES = 4096;

/** The text of `body`; `declared` is the charset of the Content-Type header, when there was one. */
export function decodeText(body: Buffer, declared?: string, options: { html?: boolean } = {}): string {
  const bom = BOMS.find((candidate) => candidate.bytes.every((byte, i) => body[i] === byte));
  const encoding = bom?.encoding ?? declared ?? (options.html ? metaCharset(body) : undefined) ?? 'utf-8';
  return decodeWith(encoding, body) ?? decodeWith('utf-8', body) ?? '';
}

/** The charset of `<meta charset=x>` or `<meta http-equiv=content-type content="...; charset=x">`. */
function metaCharset(body: Buffer): string | undefined {
  const head = body.subarray(0, META_SNIFF_BYTES).toString('latin1');
  const match = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head);
  return match?.[1]?.toLowerCase();
}

/** Undefined when `encoding` is not a label TextDecoder knows. */
function decodeWith(encoding: string, body: Buffer): string | undefined {
  try {
    return new TextDecoder(encoding).decode(body);
  } catch {
    return undefined;
  }
}
