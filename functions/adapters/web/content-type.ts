/**
 * Content types: parsing a Content-Type header, and what each caller accepts (a page wants HTML, a
 * sitemap wants XML or text), so a PNG served where a page was expected fails with a clear message.
 */
import { charsetOf } from '../readable-text/charset';

export interface MediaType {
  /** Lower-case `type/subtype`, without parameters. */
  type: string;
  /** Lower-case charset parameter, when given. */
  charset?: string;
}

/** What a caller accepts: media types (an entry starting with `+` matches a suffix, e.g. `+xml`). */
export interface ExpectedContent {
  /** Named in errors: `not an HTML page (content-type image/png)`. */
  description: string;
  mediaTypes: readonly string[];
}

export const HTML_PAGE: ExpectedContent = {
  description: 'an HTML page',
  mediaTypes: ['text/html', 'application/xhtml+xml'],
};

/** Sitemaps: XML (also RSS/Atom flavours), plain text, and gzip files served as such. */
export const SITEMAP: ExpectedContent = {
  description: 'a sitemap',
  mediaTypes: ['application/xml', 'text/xml', '+xml', 'text/plain', 'application/gzip', 'application/x-gzip', 'application/octet-stream'],
};

export const ROBOTS_TXT: ExpectedContent = { description: 'a robots.txt file', mediaTypes: ['text/plain'] };

/** `text/html; charset=UTF-8` -> {type: 'text/html', charset: 'utf-8'}; undefined for a missing header. */
export function parseMediaType(header: string | undefined): MediaType | undefined {
  if (!header) return undefined;
  const type = header.split(';')[0]?.trim().toLowerCase();
  if (!type) return undefined;
  const charset = charsetOf(header);
  return charset ? { type, charset } : { type };
}

/** True when `mediaType` is one `expected` accepts; a response without a content type is accepted. */
export function isAccepted(mediaType: MediaType | undefined, expected: ExpectedContent): boolean {
  if (!mediaType) return true;
  return expected.mediaTypes.some((accepted) =>
    accepted.startsWith('+') ? mediaType.type.endsWith(accepted) : mediaType.type === accepted,
  );
}

/** The Accept header of a request for `expected`: its types first, anything else as a last resort. */
export function acceptHeader(expected: ExpectedContent | undefined): string {
  if (!expected) return '*/*';
  const exact = expected.mediaTypes.filter((type) => !type.startsWith('+'));
  return [...exact, '*/*;q=0.1'].join(', ');
}
