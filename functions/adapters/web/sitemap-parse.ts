/**
 * Parsing one sitemap (sitemaps.org): an XML <urlset> or <sitemapindex>, an RSS or Atom feed, or a
 * plain-text list of addresses; gzip-compressed files are unpacked first, within the size cap.
 */
import { gunzipSync } from 'node:zlib';
import { XMLParser } from 'fast-xml-parser';
import { decodeText } from '../readable-text/charset';
import { displayUrl, FetchError } from './errors';
import { formatBytes } from '../wording';
import { normaliseUrl } from './urls';

export interface SitemapUrl {
  url: string;
  /** The <lastmod> text as written (W3C datetime), when given. */
  lastModified?: string;
}

export type ParsedSitemap = { kind: 'urlset'; urls: SitemapUrl[] } | { kind: 'index'; sitemaps: string[] };

const REPEATED = new Set(['url', 'sitemap', 'item', 'entry', 'link']);

const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  isArray: (name) => REPEATED.has(name),
});

/** Parses the sitemap `url` answered; addresses are normalised (invalid ones dropped), in file order. */
export function parseSitemap(body: Buffer, url: string, maxBytes: number): ParsedSitemap {
  const text = decodeText(isGzip(body) ? gunzip(body, url, maxBytes) : body).text.trim();
  if (!text.startsWith('<')) return { kind: 'urlset', urls: plainTextUrls(text) };
  const document = record(parseXml(text, url));
  if (document.urlset !== undefined) return { kind: 'urlset', urls: urlsetUrls(record(document.urlset), url) };
  if (document.sitemapindex !== undefined) {
    return { kind: 'index', sitemaps: indexSitemaps(record(document.sitemapindex), url) };
  }
  if (document.rss !== undefined) return { kind: 'urlset', urls: rssUrls(record(document.rss), url) };
  if (document.feed !== undefined) return { kind: 'urlset', urls: atomUrls(record(document.feed), url) };
  const root = Object.keys(document).find((key) => !key.startsWith('?')) ?? 'none';
  throw new FetchError('unreadable', `${displayUrl(url)} is not a sitemap (root element <${root}>)`, { url });
}

function isGzip(body: Buffer): boolean {
  return body[0] === 0x1f && body[1] === 0x8b;
}

function gunzip(body: Buffer, url: string, maxBytes: number): Buffer {
  try {
    return gunzipSync(body, { maxOutputLength: maxBytes });
  } catch (error) {
    const tooLarge = error instanceof RangeError;
    const message = tooLarge
      ? `${displayUrl(url)} is larger than ${formatBytes(maxBytes)} once unpacked`
      : `${displayUrl(url)} cannot be read: its gzip data is corrupt`;
    throw new FetchError(tooLarge ? 'too_large' : 'unreadable', message, { url, cause: error });
  }
}

function parseXml(text: string, url: string): unknown {
  try {
    return xmlParser.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    const message = `${displayUrl(url)} is not a readable sitemap: ${detail}`;
    throw new FetchError('unreadable', message, { url, cause: error });
  }
}

/** One absolute address per line (the protocol's text format); other lines are ignored. */
function plainTextUrls(text: string): SitemapUrl[] {
  return text.split(/\r?\n/).flatMap((line) => located(line));
}

function urlsetUrls(urlset: Record<string, unknown>, base: string): SitemapUrl[] {
  return list(urlset.url).flatMap((entry) => located(textOf(record(entry).loc), base, textOf(record(entry).lastmod)));
}

function indexSitemaps(index: Record<string, unknown>, base: string): string[] {
  return list(index.sitemap).flatMap((entry) => located(textOf(record(entry).loc), base).map((found) => found.url));
}

function rssUrls(rss: Record<string, unknown>, base: string): SitemapUrl[] {
  const items = list(record(rss.channel).item).map(record);
  return items.flatMap((item) => located(textOf(list(item.link)[0]), base, textOf(item.pubDate)));
}

function atomUrls(feed: Record<string, unknown>, base: string): SitemapUrl[] {
  return list(feed.entry)
    .map(record)
    .flatMap((entry) => {
      const links = list(entry.link).map(record);
      const alternate = links.find((link) => link['@rel'] === undefined || link['@rel'] === 'alternate');
      return located(textOf(alternate?.['@href']), base, textOf(entry.updated));
    });
}

/** [] or the one normalised address of `loc`. */
function located(loc: string | undefined, base?: string, lastModified?: string): SitemapUrl[] {
  const url = loc === undefined ? undefined : normaliseUrl(loc, base);
  if (!url) return [];
  return [lastModified ? { url, lastModified } : { url }];
}

function record(value: unknown): Record<string, unknown> {
  const isRecord = typeof value === 'object' && value !== null && !Array.isArray(value);
  return isRecord ? (value as Record<string, unknown>) : {};
}

function list(value: unknown): unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** The text of an element parsed as a string, or as an object holding attributes and `#text`. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number') return String(value);
  const inner = record(value)['#text'];
  return typeof inner === 'string' ? inner.trim() || undefined : undefined;
}
