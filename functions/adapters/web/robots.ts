/**
 * robots.txt (RFC 9309) for the crawler: fetched once per crawl and kept as text in the crawl state, then
 * asked about each address with our user agent. A missing file (4xx) allows everything; a file that cannot
 * be fetched (5xx, timeout, network) disallows everything, as the RFC asks.
 */
import robotsParser from 'robots-parser';
import { ROBOTS_TXT } from './content-type';
import { decodeText } from '../readable-text/charset';
import { FetchError } from './errors';
import { fetchUrl } from './fetcher';
import type { FetchOptions } from './fetch-options';
import { KMEM_USER_AGENT } from './fetch-options';

/** The RFC asks crawlers to read at least 500 KiB of a robots.txt file. */
const ROBOTS_MAX_BYTES = 512 * 1024;

/** What the crawl remembers of a site's robots.txt; plain data, serialisable to JSON. */
export interface RobotsFile {
  /** The address of the robots.txt file. */
  url: string;
  /** `rules`: `text` applies (empty text allows everything); `unreachable`: nothing may be crawled. */
  status: 'rules' | 'unreachable';
  text: string;
  /** Why the file counts as unreachable, for reports. */
  problem?: string;
}

/**
 * Fetches the robots.txt of the site of `pageUrl`. Throws the FetchError of an address that is refused
 * or does not resolve (the pages of the site would fail the same way); other failures are answered.
 */
export async function fetchRobots(pageUrl: string, options: Omit<FetchOptions, 'expect'>): Promise<RobotsFile> {
  const url = new URL('/robots.txt', pageUrl).href;
  try {
    const limits = { ...options.limits, maxBytes: ROBOTS_MAX_BYTES };
    const fetched = await fetchUrl(url, { ...options, expect: ROBOTS_TXT, limits });
    return { url, status: 'rules', text: decodeText(fetched.body, { declaredCharset: fetched.mediaType?.charset }).text };
  } catch (error) {
    if (!(error instanceof FetchError) || error.reason === 'refused' || error.reason === 'unresolvable') throw error;
    if (isMissing(error)) return { url, status: 'rules', text: '' };
    return { url, status: 'unreachable', text: '', problem: error.message };
  }
}

/** A 4xx answer, or a page that is not a robots.txt file (an HTML "not found" page answered with 200). */
function isMissing(error: FetchError): boolean {
  if (error.reason === 'content_type') return true;
  return error.reason === 'http_status' && error.status !== undefined && error.status >= 400 && error.status < 500;
}

/** The questions the crawler asks of a RobotsFile. */
export class RobotsPolicy {
  private readonly robots: ReturnType<typeof robotsParser>;
  private readonly origin: string;

  constructor(private readonly file: RobotsFile) {
    this.robots = robotsParser(file.url, file.text);
    this.origin = new URL(file.url).origin;
  }

  /** True when our user agent may fetch `url` (an address on the same host; the scheme is not compared). */
  isAllowed(url: string): boolean {
    if (this.file.status === 'unreachable') return false;
    const target = new URL(url);
    const onOrigin = new URL(`${target.pathname}${target.search}`, this.origin).href;
    return this.robots.isAllowed(onOrigin, KMEM_USER_AGENT) ?? true;
  }

  /** The Crawl-delay that applies to us, in milliseconds (0 when none). */
  crawlDelayMs(): number {
    const seconds = this.robots.getCrawlDelay(KMEM_USER_AGENT);
    return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
  }
}
