/**
 * The worker's window on the web, over functions/adapters/web: the guarded fetcher for remote files, and the
 * SiteReader for pages, sitemaps and crawls. Failures become file failures with the fetcher's own words;
 * those that may pass (timeouts, 5xx) are retried first.
 */
import type { Config } from '../../config';
import {
  type CrawlFrontier,
  crawlSteps,
  createFrontier,
  FetchError,
  type FetchOptions,
  fetchUrl,
  HTML_PAGE,
  isFinished,
  readFetchedPage,
  readSitemaps,
} from '../web';
import {
  type CrawlProgress,
  type FetchedResource,
  FileProcessingError,
  type PageValidators,
  type ReadPage,
  type RemoteFetcher,
  type SiteReader,
  TransientProcessingError,
} from '../../core/ingest/ports';

function fetchOptions(config: Config): FetchOptions {
  return {
    allowPrivate: config.allowPrivateUrls,
    limits: { totalTimeoutMs: config.web.timeoutMs, maxRedirects: config.web.maxRedirects, maxBytes: config.web.maxBytes },
  };
}

/** A FetchError as the file's failure: retried when it may pass, final otherwise. */
async function asFileFailure<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof FetchError)) throw error;
    if (error.retryable) throw new TransientProcessingError(error.message, { cause: error });
    throw new FileProcessingError(error.message, { cause: error });
  }
}

export class WebFetcher implements RemoteFetcher {
  constructor(private readonly config: Config) {}

  fetch(url: string): Promise<FetchedResource> {
    return asFileFailure(async () => {
      const fetched = await fetchUrl(url, fetchOptions(this.config));
      // the charset the server declared goes with the bytes, so extraction decodes them as a page fetched by address is
      const media = fetched.mediaType;
      const contentType = media ? (media.charset ? `${media.type}; charset=${media.charset}` : media.type) : null;
      return { bytes: fetched.body, contentType, url: fetched.url };
    });
  }
}

export class WebSiteReader implements SiteReader {
  constructor(private readonly config: Config) {}

  async page(url: string): Promise<ReadPage> {
    const page = await this.pageIfChanged(url, {});
    if (page === 'not-modified') throw new FileProcessingError(`the page ${url} answered 304 to an unconditional request`);
    return page;
  }

  pageIfChanged(url: string, validators: PageValidators): Promise<ReadPage | 'not-modified'> {
    return asFileFailure(async () => {
      const conditional =
        validators.etag || validators.lastModified ? { etag: validators.etag, lastModified: validators.lastModified } : undefined;
      const fetched = await fetchUrl(url, { ...fetchOptions(this.config), expect: HTML_PAGE, ...(conditional ? { conditional } : {}) });
      if (fetched.status === 304) return 'not-modified';
      const page = readFetchedPage(fetched);
      if (!page.text.trim()) throw new FileProcessingError(`the page ${url} has no readable text`);
      const etag = headerOf(fetched.headers.etag);
      const lastModified = headerOf(fetched.headers['last-modified']);
      return {
        url: page.url,
        title: page.title,
        text: page.text,
        html: fetched.body,
        canonicalUrl: page.canonicalUrl,
        validators: { ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) },
      };
    });
  }

  async sitemapUrls(url: string): Promise<string[]> {
    return (await this.sitemapEntries(url)).map((entry) => entry.url);
  }

  sitemapEntries(url: string): Promise<Array<{ url: string; lastmod?: string }>> {
    return asFileFailure(async () => {
      const reading = await readSitemaps(url, fetchOptions(this.config), { maxUrls: this.config.web.sitemapMaxUrls });
      return reading.urls.map((entry) => ({ url: entry.url, ...(entry.lastModified ? { lastmod: entry.lastModified } : {}) }));
    });
  }

  async crawl(startUrl: string, state: unknown, budgetMs: number): Promise<CrawlProgress> {
    const limits = { maxPages: this.config.web.crawlMaxPages, maxDepth: this.config.web.crawlMaxDepth };
    const start = (state as CrawlFrontier | null) ?? createFrontier(startUrl, limits);
    const deadline = Date.now() + budgetMs;
    const pages: ReadPage[] = [];
    const failures: string[] = [];
    let frontier = start;
    for await (const step of crawlSteps(start, fetchOptions(this.config), () => Date.now() > deadline)) {
      frontier = step.frontier;
      const outcome = step.outcome;
      if (outcome.kind === 'page') {
        const { url, title, text, canonicalUrl } = outcome.page;
        pages.push({ url, title, text, canonicalUrl });
      } else if (outcome.kind === 'failed') failures.push(outcome.error.message);
    }
    return { state: frontier, pages, failures, finished: isFinished(frontier) };
  }
}

function headerOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
