/**
 * Fetching the web safely for ingestion: the guarded fetcher, web pages as clean text, sitemaps, and
 * step-by-step site crawls. The ingestion worker imports from here.
 */
export { FetchError } from './errors';
export type { FetchOptions } from './fetch-options';
export { HTML_PAGE } from './content-type';
export { fetchUrl } from './fetcher';
export { readFetchedPage } from './page';
export { readSitemaps } from './sitemap';
export { createFrontier, isFinished, type CrawlFrontier } from './crawl-frontier';
export { crawlSteps } from './crawl';
