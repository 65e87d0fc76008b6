/**
 * The state of a breadth-first crawl of one site, as plain data: a Lambda invocation can save it to JSON
 * and the next one carry on. Pure functions only; crawl.ts does the fetching. Addresses are normalised
 * and known once: a page is never queued twice, and links beyond the depth or the host are dropped.
 */
import { withDefaults } from './defaults';
import { FetchError } from './errors';
import type { RobotsFile } from './robots';
import { isSameHost, looksLikeFile, normaliseUrl } from './urls';

export interface CrawlLimits {
  /** Pages read successfully before the crawl stops. */
  maxPages: number;
  /** Link distance from the start page (0: the start page only). */
  maxDepth: number;
  /** Failed fetches (timeouts, 5xx, ...) before the crawl gives up. */
  maxFailures: number;
  /** Addresses remembered (queued or visited); links found beyond this are dropped. */
  maxKnown: number;
}

const DEFAULT_CRAWL_LIMITS: CrawlLimits = { maxPages: 100, maxDepth: 3, maxFailures: 20, maxKnown: 5_000 };

export interface CrawlTarget {
  url: string;
  depth: number;
}

export interface CrawlFrontier {
  version: 1;
  /** The site crawled, as `host[:port]`; set from the start page's final address after redirects. */
  host: string;
  limits: CrawlLimits;
  /** Addresses to visit, first in first out. */
  queue: CrawlTarget[];
  /** Every address queued or visited, normalised. */
  known: string[];
  pagesRead: number;
  failures: number;
  /** The site's robots.txt, once fetched. */
  robots?: RobotsFile;
}

/** A new crawl from `startUrl`. Throws a FetchError for an address that is not http(s). */
export function createFrontier(startUrl: string, limits: Partial<CrawlLimits> = {}): CrawlFrontier {
  const start = normaliseUrl(startUrl);
  if (!start) {
    throw new FetchError('refused', `refused: ${startUrl} is not an http or https address`, { url: startUrl });
  }
  return {
    version: 1,
    host: new URL(start).host,
    limits: withDefaults(DEFAULT_CRAWL_LIMITS, limits),
    queue: [{ url: start, depth: 0 }],
    known: [start],
    pagesRead: 0,
    failures: 0,
  };
}

/** The next address to visit, or undefined when the crawl is over. */
export function nextTarget(frontier: CrawlFrontier): CrawlTarget | undefined {
  const { limits } = frontier;
  if (frontier.pagesRead >= limits.maxPages || frontier.failures >= limits.maxFailures) return undefined;
  return frontier.queue[0];
}

export function isFinished(frontier: CrawlFrontier): boolean {
  return nextTarget(frontier) === undefined;
}

/** True when `url` belongs to the crawled site. */
export function isOnSite(frontier: CrawlFrontier, url: string): boolean {
  return isSameHost(url, `http://${frontier.host}/`);
}

/** True when `url` was queued or visited already (under its normalised form). */
export function isKnown(frontier: CrawlFrontier, url: string): boolean {
  const normalised = normaliseUrl(url);
  return normalised !== undefined && frontier.known.includes(normalised);
}

/**
 * The frontier after the next target was read: the page counted, the address it finally came from
 * known, its on-site links queued one level deeper (within maxDepth and maxKnown). The first page may
 * move the crawl to the host it redirected to (example.com -> www.example.com).
 */
export function recordPage(frontier: CrawlFrontier, finalUrl: string, links: readonly string[]): CrawlFrontier {
  const [target, ...rest] = frontier.queue;
  if (!target) return frontier;
  const moved = target.depth === 0 && frontier.pagesRead === 0 && !isOnSite(frontier, finalUrl);
  const next: CrawlFrontier = moved
    ? { ...withoutRobots(frontier), host: new URL(finalUrl).host, queue: rest, known: [...frontier.known] }
    : { ...frontier, queue: rest, known: [...frontier.known] };
  next.pagesRead += 1;
  remember(next, finalUrl);
  if (target.depth < frontier.limits.maxDepth) enqueueLinks(next, links, target.depth + 1);
  return next;
}

/** The frontier after the next target was passed over: counted as a failure when `failed`. */
export function recordSkip(frontier: CrawlFrontier, options: { failed: boolean }): CrawlFrontier {
  const failures = frontier.failures + (options.failed ? 1 : 0);
  return { ...frontier, queue: frontier.queue.slice(1), failures };
}

export function withRobots(frontier: CrawlFrontier, robots: RobotsFile): CrawlFrontier {
  return { ...frontier, robots };
}

function withoutRobots(frontier: CrawlFrontier): CrawlFrontier {
  const { robots: _dropped, ...rest } = frontier;
  return rest;
}

function enqueueLinks(frontier: CrawlFrontier, links: readonly string[], depth: number): void {
  const known = new Set(frontier.known);
  for (const link of links) {
    if (frontier.known.length >= frontier.limits.maxKnown) return;
    const url = normaliseUrl(link);
    if (!url || known.has(url) || !isOnSite(frontier, url) || looksLikeFile(url)) continue;
    known.add(url);
    frontier.known.push(url);
    frontier.queue.push({ url, depth });
  }
}

function remember(frontier: CrawlFrontier, url: string): void {
  const normalised = normaliseUrl(url);
  if (normalised && !frontier.known.includes(normalised)) frontier.known.push(normalised);
}
