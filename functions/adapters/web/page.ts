/**
 * A web page as kmem keeps it: the main content as clean text (the one HTML-to-text pipeline,
 * functions/adapters/readable-text/html-reader.ts, shared with uploaded HTML files), the title, the canonical
 * address, and the page's links on the same host (what the crawler follows).
 */
import { decodeText } from '../readable-text/charset';
import { type HtmlDocument, HtmlTooDeepError, MAX_ELEMENT_DEPTH, parseHtml } from '../readable-text/html-document';
import { readHtml } from '../readable-text/html-reader';
import { HTML_PAGE } from './content-type';
import type { FetchedResource } from './fetcher';
import { fetchUrl } from './fetcher';
import type { FetchOptions } from './fetch-options';
import { displayUrl, FetchError } from './errors';
import { isSameHost, normaliseUrl } from './urls';

export interface WebPage {
  /** The address that answered (after redirects). */
  url: string;
  /** The page's <link rel=canonical>, or `url` when it names none. */
  canonicalUrl: string;
  /** The article title, else <title>, og:title or the first heading, else the address. */
  title: string;
  /** Main content, paragraphs separated by a blank line. */
  text: string;
  /** Normalised same-host links, de-duplicated, in document order. */
  links: string[];
  /** Where `text` came from: Readability's article, or the whole body when it found none or too small a part (html-reader.ts). */
  extractedBy: 'readability' | 'body';
}

/** Fetches `url` as an HTML page and reads it. Throws a FetchError (e.g. `not an HTML page`). */
export async function fetchPage(url: string, options: Omit<FetchOptions, 'expect'>): Promise<WebPage> {
  const fetched = await fetchUrl(url, { ...options, expect: HTML_PAGE });
  return readFetchedPage(fetched);
}

/** Reads a fetched HTML resource, decoding it by its BOM, declared or <meta> charset (functions/adapters/readable-text/charset.ts). */
export function readFetchedPage(fetched: FetchedResource): WebPage {
  return readPage(decodeText(fetched.body, { declaredCharset: fetched.mediaType?.charset }).text, fetched.url);
}

/** Reads the HTML `html` that `url` answered. Pure: no network. Throws a FetchError for a page nested too deep. */
export function readPage(html: string, url: string): WebPage {
  const document = parsePage(html, url);
  const base = baseUrl(document, url);
  // Readability rewrites the document, so everything else is read first.
  const links = sameHostLinks(document, base, url);
  const canonicalUrl = canonical(document, base) ?? url;
  const { text, title, extractedBy } = readHtml(document);
  return { url, canonicalUrl, title: title ?? url, text, links, extractedBy };
}

function parsePage(html: string, url: string): HtmlDocument {
  try {
    return parseHtml(html);
  } catch (error) {
    if (!(error instanceof HtmlTooDeepError)) throw error;
    const message = `${displayUrl(url)} nests its elements ${error.depth} deep, more than the ${MAX_ELEMENT_DEPTH} that can be read safely`;
    throw new FetchError('unreadable', message, { url, cause: error });
  }
}

/** The <base href> of the document when valid, else the page's own address. */
function baseUrl(document: HtmlDocument, url: string): string {
  const declared = document.querySelector('base[href]')?.getAttribute('href');
  return (declared && normaliseUrl(declared, url)) || url;
}

function canonical(document: HtmlDocument, base: string): string | undefined {
  const href = document.querySelector('link[rel~="canonical"][href]')?.getAttribute('href');
  return href ? normaliseUrl(href, base) : undefined;
}

function sameHostLinks(document: HtmlDocument, base: string, pageUrl: string): string[] {
  const links = new Set<string>();
  for (const anchor of Array.from(document.querySelectorAll('a[href], area[href]'))) {
    const link = normaliseUrl(anchor.getAttribute('href') ?? '', base);
    if (link && isSameHost(link, pageUrl)) links.add(link);
  }
  return [...links];
}
