/**
 * The worker's web reader and fetcher as it starts with them: functions/adapters/content/web-reader.ts
 * (with the HTML parser, Readability and the sitemap parser behind it) loads at the first page, sitemap
 * or remote file, not when a worker starts. A failed load fails that call and is tried again by the next.
 */
import type { Config } from '../../config';
import type { RemoteFetcher, SiteReader } from '../../core/ingest/ports';
import { loadOnce } from '../load-once';

const webReader = loadOnce(() => import('./web-reader'));

/** WebFetcher, loaded at its first fetch. */
export function lazyWebFetcher(config: Config): RemoteFetcher {
  const fetcher = loadOnce(async () => new (await webReader()).WebFetcher(config));
  return { fetch: async (url) => (await fetcher()).fetch(url) };
}

/** WebSiteReader, loaded at its first call. */
export function lazySiteReader(config: Config): SiteReader {
  const site = loadOnce(async () => new (await webReader()).WebSiteReader(config));
  return {
    page: async (url) => (await site()).page(url),
    pageIfChanged: async (url, validators) => (await site()).pageIfChanged(url, validators),
    sitemapUrls: async (url) => (await site()).sitemapUrls(url),
    sitemapEntries: async (url) => (await site()).sitemapEntries(url),
    crawl: async (startUrl, state, budgetMs) => (await site()).crawl(startUrl, state, budgetMs),
  };
}
