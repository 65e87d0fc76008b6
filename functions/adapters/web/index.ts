/**
 * Fetching the web safely for ingestion: the guarded fetcher, web pages as clean text, sitemaps, and
 * step-by-step site crawls. The ingestion worker imports from here.
 */
export { FetchError, type FetchFailure } from './errors';
export { DEFAULT_FETCH_LIMITS, KMEM_USER_AGENT, type FetchLimits, type FetchOptions } from './fetch-options';
export { HTML_PAGE, SITEMAP, type ExpectedContent, type MediaType } from './content-type';
export { fetchUrl, type FetchedResource } from './fetcher';
export { fetchPage, readPage, readFetchedPage, type WebPage } from './page';
export { parseSitemap, type ParsedSitemap, type SitemapUrl } from './sitemap-parse';
export { DEFAULT_SITEMAP_LIMITS, readSitemaps, type SitemapLimits, type SitemapReading } from './sitemap';
export {
  createFrontier,
  DEFAULT_CRAWL_LIMITS,
  isFinished,
  nextTarget,
  type CrawlFrontier,
  type CrawlLimits,
  type CrawlTarget,
} from './crawl-frontier';
export { crawlStep, crawlSteps, type CrawlOptions, type CrawlOutcome, type CrawlStep } from './crawl';
export { fetchRobots, RobotsPolicy, type RobotsFile } from './robots';
export { normaliseUrl } from './urls';
