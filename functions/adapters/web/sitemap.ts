/**
 * Reading a sitemap address to the page addresses it lists: sitemap indexes are followed breadth first,
 * bounded by the number of sitemaps read and of addresses kept, with duplicates dropped. A failing child
 * sitemap is reported and skipped; a failing first sitemap fails the whole reading.
 */
import { SITEMAP } from './content-type';
import { withDefaults } from './defaults';
import { FetchError } from './errors';
import { fetchUrl } from './fetcher';
import type { FetchOptions } from './fetch-options';
import type { SitemapUrl } from './sitemap-parse';
import { parseSitemap } from './sitemap-parse';
import { normaliseUrl } from './urls';

export interface SitemapLimits {
  /** Sitemap files fetched, the first one and index children together (failures included). */
  maxSitemaps: number;
  /** Page addresses kept. */
  maxUrls: number;
  /** Largest sitemap file, after decompression (the protocol allows 50 MB). */
  maxBytes: number;
}

const DEFAULT_SITEMAP_LIMITS: SitemapLimits = { maxSitemaps: 50, maxUrls: 10_000, maxBytes: 50 * 1024 * 1024 };

export interface SitemapReading {
  /** Page addresses, de-duplicated, in the order found. */
  urls: SitemapUrl[];
  /** Sitemap files read successfully. */
  sitemaps: string[];
  /** Child sitemaps that could not be read, with the reason. */
  failures: { url: string; error: string }[];
  /** True when a limit stopped the reading before every sitemap and address was taken. */
  truncated: boolean;
}

type SitemapFetchOptions = Omit<FetchOptions, 'expect'>;

/** Reads the sitemap at `url` and every sitemap it indexes, within `limits`. Throws a FetchError for `url`. */
export async function readSitemaps(
  url: string,
  options: SitemapFetchOptions,
  limits: Partial<SitemapLimits> = {},
): Promise<SitemapReading> {
  const first = normaliseUrl(url);
  if (!first) throw new FetchError('refused', `refused: ${url} is not an http or https address`, { url });
  const walk = new SitemapWalk(options, withDefaults(DEFAULT_SITEMAP_LIMITS, limits));
  const queue = [first];
  const queued = new Set(queue);
  for (let next = queue.shift(); next !== undefined && !walk.reading.truncated; next = queue.shift()) {
    for (const child of await walk.read(next, next === first)) {
      if (queued.has(child)) continue;
      queued.add(child);
      queue.push(child);
    }
  }
  return walk.reading;
}

/** The progress of one readSitemaps call. */
class SitemapWalk {
  readonly reading: SitemapReading = { urls: [], sitemaps: [], failures: [], truncated: false };
  private readonly kept = new Set<string>();

  constructor(
    private readonly options: SitemapFetchOptions,
    private readonly limits: SitemapLimits,
  ) {}

  /** Reads one sitemap (unless the sitemap limit is reached); answers the sitemaps it indexes. */
  async read(url: string, isFirst: boolean): Promise<string[]> {
    const { reading, limits } = this;
    if (reading.sitemaps.length + reading.failures.length >= limits.maxSitemaps) {
      reading.truncated = true;
      return [];
    }
    try {
      const fetchLimits = { ...this.options.limits, maxBytes: limits.maxBytes };
      const fetched = await fetchUrl(url, { ...this.options, expect: SITEMAP, limits: fetchLimits });
      const parsed = parseSitemap(fetched.body, fetched.url, limits.maxBytes);
      reading.sitemaps.push(url);
      if (parsed.kind === 'index') return parsed.sitemaps;
      this.keep(parsed.urls);
      return [];
    } catch (error) {
      if (isFirst || !(error instanceof FetchError)) throw error;
      reading.failures.push({ url, error: error.message });
      return [];
    }
  }

  private keep(urls: readonly SitemapUrl[]): void {
    for (const entry of urls) {
      if (this.kept.has(entry.url)) continue;
      if (this.kept.size >= this.limits.maxUrls) {
        this.reading.truncated = true;
        return;
      }
      this.kept.add(entry.url);
      this.reading.urls.push(entry);
    }
  }
}
