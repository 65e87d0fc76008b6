/**
 * Addresses as the crawler and sitemap reader compare them: http(s) only, no fragment, no credentials,
 * scheme and host lower-cased and default ports dropped (by URL itself), so one page has one spelling.
 */

/** File extensions that are never HTML pages; links to them are not crawled. */
const NOT_PAGES = new RegExp(
  '\\.(?:pdf|jpe?g|png|gif|webp|svg|ico|bmp|tiff?|mp[34]|m4a|wav|ogg|webm|mov|avi|zip|gz|tgz|rar|7z|exe|dmg|iso|' +
    'css|js|json|xml|rss|txt|csv|docx?|xlsx?|pptx?|woff2?|ttf|eot)$',
  'i',
);

/** The normalised form of `raw` (relative to `base`), or undefined when it is not an http(s) address. */
export function normaliseUrl(raw: string, base?: string | URL): string | undefined {
  const text = raw.trim();
  const baseText = base === undefined ? undefined : String(base);
  if (!text || !URL.canParse(text, baseText)) return undefined;
  const url = new URL(text, baseText);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password) return undefined;
  url.hash = '';
  url.hostname = url.hostname.replace(/\.+$/, '');
  return url.href;
}

/** True when both addresses are on the same host and port (http and https count as the same site). */
export function isSameHost(a: string | URL, b: string | URL): boolean {
  return new URL(String(a)).host === new URL(String(b)).host;
}

/** True for addresses that name a file (an image, a PDF, a stylesheet) rather than a page. */
export function looksLikeFile(url: string): boolean {
  return NOT_PAGES.test(new URL(url).pathname);
}
