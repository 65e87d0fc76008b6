/**
 * Crawling a site one page at a time: `crawlStep` takes a CrawlFrontier, reads its next page (robots.txt
 * first, once) and answers the new frontier with what happened, so a worker can stop after any step, save
 * the frontier as JSON and resume in another invocation. `crawlSteps` runs steps back to back.
 */
import type { CrawlFrontier } from './crawl-frontier';
import { isKnown, isOnSite, nextTarget, recordPage, recordSkip, withRobots } from './crawl-frontier';
import { FetchError } from './errors';
import type { FetchOptions } from './fetch-options';
import type { WebPage } from './page';
import { fetchPage } from './page';
import { fetchRobots, RobotsPolicy } from './robots';

export type CrawlOptions = Omit<FetchOptions, 'expect' | 'checkRedirect'>;

export type CrawlOutcome =
  | { kind: 'page'; depth: number; page: WebPage }
  | { kind: 'skipped'; url: string; reason: string }
  | { kind: 'failed'; url: string; error: FetchError }
  | { kind: 'finished' };

export interface CrawlStep {
  frontier: CrawlFrontier;
  outcome: CrawlOutcome;
  /** How long to wait before the next step (the site's robots.txt Crawl-delay, capped). */
  waitMs: number;
}

/** The longest Crawl-delay honoured between two steps. */
const MAX_CRAWL_DELAY_MS = 10_000;

/** Reads the next page of the crawl. Throws only for errors that are not FetchErrors (bugs, not sites). */
export async function crawlStep(frontier: CrawlFrontier, options: CrawlOptions): Promise<CrawlStep> {
  const target = nextTarget(frontier);
  if (!target) return { frontier, outcome: { kind: 'finished' }, waitMs: 0 };
  let current = frontier;
  let robotsFile = frontier.robots;
  try {
    robotsFile ??= await fetchRobots(target.url, options);
  } catch (error) {
    return failed(current, target.url, error);
  }
  current = withRobots(current, robotsFile);
  const robots = new RobotsPolicy(robotsFile);
  const waitMs = Math.min(robots.crawlDelayMs(), MAX_CRAWL_DELAY_MS);
  if (!robots.isAllowed(target.url)) return skipped(current, target.url, robotsRefusal(current), 0);
  let page: WebPage;
  try {
    page = await fetchPage(target.url, { ...options, checkRedirect: redirectRule(current, robots, target.depth) });
  } catch (error) {
    if (isPassOver(error)) return skipped(current, target.url, error.message, waitMs);
    return { ...failed(current, target.url, error), waitMs };
  }
  if (page.url !== target.url && isKnown(current, page.url)) {
    return skipped(current, target.url, `it redirects to ${page.url}, already crawled`, waitMs);
  }
  const next = recordPage(current, page.url, page.links);
  return { frontier: next, outcome: { kind: 'page', depth: target.depth, page }, waitMs };
}

/**
 * Runs steps until the crawl is finished or `shouldStop` answers true (e.g. the invocation is nearly out
 * of time), waiting the Crawl-delay between them. Yields every step; the last one holds the frontier to save.
 */
export async function* crawlSteps(
  frontier: CrawlFrontier,
  options: CrawlOptions,
  shouldStop: () => boolean = () => false,
): AsyncGenerator<CrawlStep> {
  let current = frontier;
  while (!shouldStop()) {
    const step = await crawlStep(current, options);
    if (step.outcome.kind === 'finished') return;
    yield step;
    current = step.frontier;
    if (step.waitMs > 0 && nextTarget(current)) await new Promise((resolve) => setTimeout(resolve, step.waitMs));
  }
}

/** Redirects of the start page may go anywhere the guard allows; later ones must stay on site, within robots.txt. */
function redirectRule(frontier: CrawlFrontier, robots: RobotsPolicy, depth: number): (target: URL) => string | undefined {
  if (depth === 0 && frontier.pagesRead === 0) return () => undefined;
  return (target) => {
    if (!isOnSite(frontier, target.href)) return `which leaves ${frontier.host}`;
    return robots.isAllowed(target.href) ? undefined : 'which robots.txt disallows';
  };
}

/** Not a page (a PDF behind an extensionless link), or a redirect off the site: passed over, not a failure. */
function isPassOver(error: unknown): error is FetchError {
  return error instanceof FetchError && (error.reason === 'content_type' || error.reason === 'refused');
}

function robotsRefusal(frontier: CrawlFrontier): string {
  const robots = frontier.robots;
  if (robots?.status === 'unreachable') return `robots.txt could not be read (${robots.problem ?? 'no answer'})`;
  return 'disallowed by robots.txt';
}

function skipped(frontier: CrawlFrontier, url: string, reason: string, waitMs: number): CrawlStep {
  return { frontier: recordSkip(frontier, { failed: false }), outcome: { kind: 'skipped', url, reason }, waitMs };
}

function failed(frontier: CrawlFrontier, url: string, error: unknown): CrawlStep {
  if (!(error instanceof FetchError)) throw error;
  return { frontier: recordSkip(frontier, { failed: true }), outcome: { kind: 'failed', url, error }, waitMs: 0 };
}
